// Protected links and lookup history from the dashboard: a link made with the workspace's API key is listed with
// its clicks after visits to /go/{slug}, disabled with an in-page confirmation, and then answers 410; a link made
// on the page joins the list; the history page shows a lookup made through the API and filters it by endpoint.
import { expect, test, type Page } from "@playwright/test";
import { seriousViolations } from "./axe";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";

const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

async function expectNoSeriousAxeFinding(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

test("a link made with the API key is listed with its clicks, disabled in the page, and then answers 410", async ({
  page,
}, testInfo) => {
  const key = await newWorkspace(page, "Links", ["suite_starter"]);
  const auth = { Authorization: `Bearer ${key}` };

  const created = await page.request.post("/v1/go/links", {
    headers: auth,
    data: { url: "https://example.com/spring-offer?utm=mail" },
  });
  expect(created.status()).toBe(200);
  const link = (await created.json()) as { id: string; slug: string; short_url: string };
  for (let i = 0; i < 2; i++) {
    const visit = await page.request.get(`/go/${link.slug}`, { maxRedirects: 0 });
    expect(visit.status()).toBe(302);
    expect(visit.headers().location).toBe("https://example.com/spring-offer?utm=mail");
  }

  await page.goto("/dashboard/links");
  await expect(page.getByRole("heading", { name: "Protected links", level: 1 })).toBeVisible();
  const row = page.locator(`[data-testid=link-row][data-slug="${link.slug}"]`);
  await expect(row).toContainText("https://example.com/spring-offer?utm=mail");
  await expect(row.getByTestId("link-clicks")).toHaveText("2");
  await expect(row.getByTestId("link-status")).toHaveText("Active");
  await expect(row).toContainText("Never expires");
  // The short URL is a link to itself.
  await expect(row.getByTestId("link-short-url")).toHaveAttribute("href", link.short_url);

  // A destination the API refuses is said of the Destination field, not of the API's "url".
  await page.getByLabel("Destination").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Create link" }).click();
  await expect(page.getByTestId("error-note")).toHaveText("Destination must be an absolute http:// or https:// URL.");

  // A second link made on the page joins the list, newest first.
  await page.getByLabel("Destination").fill("https://example.com/made-in-the-dashboard");
  await page.getByLabel("Expires").selectOption("7");
  await page.getByRole("button", { name: "Create link" }).click();
  await expect(page.getByTestId("link-created")).toContainText("/go/");
  await expect(page.getByTestId("link-row")).toHaveCount(2);
  await expect(page.getByTestId("link-row").first()).toContainText("made-in-the-dashboard");
  await expect(page.getByTestId("link-row").first()).toContainText("Expires");
  await snap(page, testInfo, "links-1280");

  // Disable: the page asks in place; Cancel keeps the link, "Yes, disable" turns it off.
  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row.getByTestId("link-confirm")).toBeVisible();
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(row.getByTestId("link-confirm")).toHaveCount(0);
  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row.getByRole("button", { name: "Cancel" })).toBeFocused();
  // Escape closes the question and gives focus back to Disable.
  await page.keyboard.press("Escape");
  await expect(row.getByTestId("link-confirm")).toHaveCount(0);
  await expect(row.getByRole("button", { name: "Disable" })).toBeFocused();
  await row.getByRole("button", { name: "Disable" }).click();
  await expectNoSeriousAxeFinding(page);
  await snap(page, testInfo, "links-confirm");
  await row.getByRole("button", { name: "Yes, disable" }).press("Enter");
  await expect(row.getByTestId("link-status")).toHaveText("Disabled");
  await expect(row.getByRole("button", { name: "Disable" })).toHaveCount(0);
  await expect(row).toContainText("Disabled 20");
  // The question and Disable went: the focus is on the button that undoes it (it fell to the page's top).
  await expect(row.getByRole("button", { name: /back on$/ })).toBeFocused();

  const gone = await page.request.get(`/go/${link.slug}`, { maxRedirects: 0 });
  expect(gone.status()).toBe(410);
  expect(await gone.json()).toEqual({ error: { code: "LINK_DISABLED", message: "This link has been disabled." } });
  const listed = await page.request.get("/v1/go/links", { headers: auth });
  expect((await listed.json()).items.find((l: { id: string }) => l.id === link.id)).toMatchObject({
    status: "disabled",
    clicks: 2,
  });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(row.getByTestId("link-status")).toHaveText("Disabled");
  expect(await noHorizontalScroll(page)).toBe(true);
  await snap(page, testInfo, "links-390");

  // A disable can be undone: the link redirects again.
  await row.getByRole("button", { name: /^Turn .* back on$/ }).press("Enter");
  await expect(row.getByTestId("link-status")).toHaveText("Active");
  // Its button went with the disable: the focus is on Disable, which is back.
  await expect(row.getByRole("button", { name: /^Disable / })).toBeFocused();
  expect((await page.request.get(`/go/${link.slug}`, { maxRedirects: 0 })).status()).toBe(302);

  // The history page shows a lookup made through the API, and its endpoint filter keeps only that kind.
  await page.setViewportSize({ width: 1280, height: 800 });
  for (const path of ["/v1/ip/8.8.8.8/geo", "/v1/asn/15169"])
    expect((await page.request.get(path, { headers: auth })).status()).toBe(200);
  await page.goto("/dashboard/history");
  await expect(page.getByTestId("history-row")).toHaveCount(2);
  await page.getByTestId("history-endpoint").selectOption("asn");
  await expect(page.getByTestId("history-row")).toHaveCount(1);
  await expect(page.getByTestId("history-row")).toContainText("AS15169");
  await expectNoSeriousAxeFinding(page);
  await snap(page, testInfo, "history-filtered-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("history-row")).toHaveCount(1);
  expect(await noHorizontalScroll(page)).toBe(true);
  await snap(page, testInfo, "history-filtered-390");
});

test("a new workspace sees an empty list of links, and a Free workspace is told which plans keep history", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Links free", []);
  await page.goto("/dashboard/links");
  await expect(page.getByTestId("links-empty")).toBeVisible();
  await snap(page, testInfo, "links-empty");
  await page.goto("/dashboard/history");
  await expect(page.getByTestId("history-none")).toContainText("Paid Email subscription keeps 7 days");
  await expect(page.getByTestId("history-none").getByRole("link")).toHaveAttribute("href", "/dashboard/plan");
});
