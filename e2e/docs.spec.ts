// The API reference: search, a sidebar that stays in view, examples from the schemas, and "try it" with a pasted
// key that is never stored. Everything it loads comes from this server.
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { createFirstWorkspace, signIn, uniqueEmail } from "./helpers";

/** The reference is very long: keep what is in view, not the whole page. */
async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

test("the reference searches, shows examples and keeps its sidebar in view, loading nothing from elsewhere", async ({
  page,
  baseURL,
}, testInfo) => {
  const elsewhere: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(baseURL!) && !r.url().startsWith("data:")) elsewhere.push(r.url());
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/docs");
  const ops = page.getByTestId("operation");
  const total = await ops.count();
  expect(total).toBeGreaterThan(20);
  // Every operation has a request example, and each one answering JSON a response example from its schema.
  await expect(page.getByTestId("example-request")).toHaveCount(total);
  const geo = page.locator("#get-ip-ip-geo");
  await expect(geo.getByTestId("example-request")).toContainText("/v1/ip/8.8.8.8/geo");
  await expect(geo.getByTestId("example-request")).toContainText("Authorization: Bearer $KEY");
  const geoExample = JSON.parse((await geo.getByTestId("example-response").textContent()) ?? "{}");
  expect(Object.keys(geoExample)).toEqual(expect.arrayContaining(["ip", "country", "city", "latitude", "source"]));
  const emailBody = page.locator("#post-email-check").getByTestId("example-request");
  await expect(emailBody).toContainText(`"email":"jane@example.com"`);
  // Parameters carry their descriptions.
  await expect(page.locator("#get-dns-lookup table.params").first()).toContainText("Record type");

  // Sections per tag, linked from the sidebar, which stays in view while the page scrolls.
  await expect(page.locator("[data-tag-section]").first()).toBeVisible();
  await page.locator("#post-email-check").scrollIntoViewIfNeeded();
  await expect(page.locator(".docs-toc")).toBeInViewport();
  expect(await page.locator(".docs-toc").evaluate((el) => getComputedStyle(el).position)).toBe("sticky");

  await page.getByTestId("docs-search").fill("geolocation");
  await expect(page.getByTestId("docs-search-count")).toContainText("match");
  await expect(geo).toBeVisible();
  await expect(page.locator("#post-email-check")).toBeHidden();
  const shown = await ops.evaluateAll((els) => els.filter((e) => !(e as HTMLElement).hidden).length);
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(total);
  await snap(page, testInfo, "docs-search-1280");
  await page.getByTestId("docs-search").fill("");
  await expect(page.locator("#post-email-check")).toBeVisible();

  // Text meant for the operator who runs the service is not in the reference.
  await expect(page.locator("body")).not.toContainText("feeds refresh");
  await expect(page.locator("body")).not.toContainText("npm run admin");
  expect(elsewhere).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
  await snap(page, testInfo, "docs-390");
});

test("try it sends the request from the browser with the pasted key, which is never stored", async ({
  page,
}, testInfo) => {
  await signIn(page, uniqueEmail("docs-try"));
  const key = await createFirstWorkspace(page, "Docs try");
  await page.goto("/docs");
  const geo = page.locator("#get-ip-ip-geo");
  const tryIt = geo.getByTestId("try-it");
  await tryIt.locator("summary").click();
  await expect(tryIt.getByLabel(/^ip/)).toHaveValue("8.8.8.8");
  // Without a key the API answers 401, shown as it came.
  await tryIt.getByRole("button", { name: "Send GET request" }).click();
  await expect(tryIt.getByTestId("try-status")).toHaveText("401");
  await tryIt.getByTestId("try-key").fill(key);
  await tryIt.getByRole("button", { name: "Send GET request" }).click();
  await expect(tryIt.getByTestId("try-status")).toHaveText("200");
  await expect(tryIt.getByTestId("try-answer")).toContainText('"ip": "8.8.8.8"');
  await expect(tryIt.getByTestId("try-answer")).toContainText("x-service-quota-used");
  // The key is shared with the other panels in memory, and nowhere else.
  const email = page.locator("#post-email-check").getByTestId("try-it");
  await email.locator("summary").click();
  await expect(email.getByTestId("try-key")).toHaveValue(key);
  await snap(page, testInfo, "docs-try-it");
  const stored = await page.evaluate(() =>
    JSON.stringify({ l: { ...localStorage }, s: { ...sessionStorage }, c: document.cookie, u: location.href }),
  );
  expect(stored).not.toContain(key);
  const cookies = await page.context().cookies();
  expect(JSON.stringify(cookies)).not.toContain(key);
  await page.reload();
  await page.locator("#get-ip-ip-geo").getByTestId("try-it").locator("summary").click();
  await expect(page.locator("#get-ip-ip-geo").getByTestId("try-key")).toHaveValue("");
});
