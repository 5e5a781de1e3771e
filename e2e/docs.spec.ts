// The API reference: a light page listing the operations, each one's details fetched when opened or linked to,
// search (empty sidebar groups hidden), a sidebar that stays in view, examples from the schemas against this
// site's address, and "try it" with a pasted key that is never stored. Everything it loads comes from this server.
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";

/** The reference is very long: keep what is in view, not the whole page. */
async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

test("the reference is a light page: operations listed, details fetched when opened, examples against this site", async ({
  page,
  baseURL,
}, testInfo) => {
  const elsewhere: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith(baseURL!) && !r.url().startsWith("data:")) elsewhere.push(r.url());
  });
  // The whole HTML (Next's payload included) stays under 300 KB; it was 2.4 MB with every operation rendered.
  const html = await (await page.request.get("/docs")).text();
  expect(Buffer.byteLength(html)).toBeLessThan(300_000);
  expect(html).not.toContain("/v1/v1/");

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/docs");
  const ops = page.getByTestId("operation");
  const total = await ops.count();
  expect(total).toBeGreaterThan(20);
  await expect(page.getByTestId("base-url")).toHaveText(`${baseURL}/v1`);
  // Details are not on the page until an operation is opened.
  await expect(page.getByTestId("example-request")).toHaveCount(0);
  const geo = page.locator("#get-ip-ip-geo");
  await geo.getByTestId("operation-open").click();
  await expect(geo.getByTestId("example-request")).toContainText(`"${baseURL}/v1/ip/8.8.8.8/geo"`);
  await expect(geo.getByTestId("example-request")).toContainText("Authorization: Bearer $KEY");
  const geoExample = JSON.parse((await geo.getByTestId("example-response").textContent()) ?? "{}");
  expect(Object.keys(geoExample)).toEqual(expect.arrayContaining(["ip", "country", "city", "latitude", "source"]));
  expect(geoExample).toMatchObject({ ip: "8.8.8.8", country: { code: "US" }, city: "Mountain View" });
  await snap(page, testInfo, "docs-open-1280");

  // A link to an operation opens it.
  await page.goto("/docs#post-email-check");
  const emailBody = page.locator("#post-email-check").getByTestId("example-request");
  await expect(emailBody).toContainText(`"email":"jane@example.com"`);
  await page.locator("#get-dns-lookup").getByTestId("operation-open").click();
  await expect(page.locator("#get-dns-lookup table.params").first()).toContainText("Record type");
  // A bulk job's answer is its 202.
  await page.locator("#post-jobs").getByTestId("operation-open").click();
  await expect(page.locator("#post-jobs")).toContainText("202 response");

  // Sections per tag, linked from the sidebar, which stays in view while the page scrolls.
  await expect(page.locator("[data-tag-section]").first()).toBeVisible();
  await page.locator("#post-email-check").scrollIntoViewIfNeeded();
  await expect(page.locator(".docs-toc")).toBeInViewport();
  expect(await page.locator(".docs-toc").evaluate((el) => getComputedStyle(el).position)).toBe("sticky");

  // Search: matching operations stay, the others and the sidebar groups left empty go.
  const groups = page.locator("[data-toc-group]");
  const allGroups = await groups.count();
  await page.getByTestId("docs-search").fill("geolocation");
  await expect(page.getByTestId("docs-search-count")).toContainText("match");
  await expect(geo).toBeVisible();
  await expect(page.locator("#post-email-check")).toBeHidden();
  const shown = await ops.evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length);
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(total);
  const visibleGroups = await groups.evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null));
  expect(visibleGroups.length).toBeGreaterThan(0);
  expect(visibleGroups.length).toBeLessThan(allGroups);
  for (const group of await groups.all()) {
    if (await group.isVisible()) await expect(group.locator("[data-toc-op]:visible").first()).toBeVisible();
  }
  await snap(page, testInfo, "docs-search-1280");
  // Words of a description only are found too (the full text is fetched on the first search).
  await page.getByTestId("docs-search").fill("observatory");
  await expect(page.locator("#post-scans")).toBeVisible();
  await expect(geo).toBeHidden();
  await page.getByTestId("docs-search").fill("");
  await expect(page.locator("#post-email-check")).toBeVisible();

  // Text meant for the operator who runs the service is not in the reference.
  const kev = page.locator("#get-vulnerabilities-kev");
  await kev.getByTestId("operation-open").click();
  await expect(kev.getByTestId("example-request")).toBeVisible();
  await expect(kev).not.toContainText("feeds refresh");
  await expect(page.locator("body")).not.toContainText("npm run admin");
  await expect(page.locator("body")).not.toContainText("/v1/v1/");
  expect(elsewhere).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
  await snap(page, testInfo, "docs-390");
});

test("try it sends the request from the browser with the pasted key, which is never stored", async ({
  page,
}, testInfo) => {
  const key = await newWorkspace(page, "Docs try", []);
  await page.goto("/docs#get-ip-ip-geo");
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
  await page.locator("#post-email-check").getByTestId("operation-open").click();
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
  await expect(page.locator("#get-ip-ip-geo").getByTestId("try-it")).toBeVisible();
  await page.locator("#get-ip-ip-geo").getByTestId("try-it").locator("summary").click();
  await expect(page.locator("#get-ip-ip-geo").getByTestId("try-key")).toHaveValue("");
});
