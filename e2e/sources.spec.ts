// Data sources: the landing page says what the service does and how fresh its data is; the dashboard's sources page
// lists every feed by area with its age and refresh state; signing in from a deep link returns to it; an unknown
// dashboard page keeps the navigation; the favicon exists.
import { expect, test } from "@playwright/test";
import { createFirstWorkspace, snap, uniqueEmail } from "./helpers";
import { expectNoSidewaysScroll } from "./narrow";

test("the landing page shows what the service does and the data sources with their freshness", async ({
  page,
}, testInfo) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Security and Fraud Intelligence API", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/signin");
  await expect(page.getByRole("link", { name: "API reference" })).toBeVisible();
  const table = page.locator("table.landing-sources");
  await expect(table.getByRole("rowheader", { name: "IP reputation and privacy" })).toBeVisible();
  await expect(table).toContainText(/refreshed hourly, daily, weekly/);
  await expect(table).toContainText(/Vulnerabilities/);
  await snap(page, testInfo, "landing-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  await snap(page, testInfo, "landing-390");

  const icon = await page.request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/");
});

test("signing in from a deep link returns to that page, which lists every data source by area", async ({
  page,
}, testInfo) => {
  await page.goto("/dashboard/sources");
  await page.waitForURL(/\/signin\?callbackUrl=%2Fdashboard%2Fsources$/);
  const email = uniqueEmail("sources");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  // A new user creates a workspace first; the sources page is one click away after.
  await page.waitForURL(/\/dashboard\/sources$/);
  await createFirstWorkspace(page, "Sources");
  // The overview's card: each area's ages, one click from the whole list.
  const card = page.getByTestId("sources-card");
  await expect(card).toContainText("IP reputation and privacy");
  await expect(card).toContainText(/Vulnerabilities: 1 list, data .* old/);
  await card.getByRole("link", { name: "Every source, its age and refresh" }).click();
  await page.waitForURL(/\/dashboard\/sources$/);
  await expect(page.getByRole("heading", { name: "Data sources", level: 1 })).toBeVisible();
  await expect(page.getByTestId("sources-summary")).toContainText("refresh themselves");
  // The oldest data is named as its row is (its title), not by the source's id (it once read "oldest data
  // (rdap-bootstrap-ipv4)").
  const oldest = page.getByTestId("sources-oldest");
  const oldestId = await oldest.getAttribute("data-name");
  const oldestTitle = await page
    .locator(`[data-testid="source-row"][data-name="${oldestId}"] .source-head strong`)
    .textContent();
  await expect(oldest).toContainText(`oldest data (${oldestTitle})`);
  const tor = page.locator('[data-testid="source-row"][data-name="tor-exits"]');
  await expect(tor).toContainText("entries");
  await expect(tor).toContainText("Data from 2024-08-20");
  await expect(tor.getByTestId("source-refresh")).toContainText(/Refreshes hourly|Last refresh failed/);
  await expect(
    page.locator('[data-testid="source-row"][data-name="hosting-asns"]').getByTestId("source-refresh"),
  ).toContainText("Snapshot");
  await expect(page.getByRole("heading", { name: "Vulnerabilities", level: 2 })).toBeVisible();
  // details on demand
  await tor.getByText("Licence and attribution").click();
  await expect(tor).toContainText("Tor Project");
  await snap(page, testInfo, "sources-1280", { fullPage: false });

  // The list filters by words and by refresh state; nothing matching says so and offers the whole list back.
  const rows = page.getByTestId("source-row");
  const all = await rows.count();
  await page.getByTestId("sources-filter").fill("tor exit");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-name", "tor-exits");
  await expect(page.getByTestId("sources-shown")).toHaveText(`1 of ${all} sources`);
  await page.getByTestId("sources-filter").fill("");
  await page.getByTestId("sources-show").selectOption("snapshot");
  await expect(rows.first()).toBeVisible();
  expect(
    await rows.evaluateAll((els) =>
      els.every((e) => ["snapshot", "off"].includes(e.getAttribute("data-refresh") ?? "")),
    ),
  ).toBe(true);
  await page.getByTestId("sources-filter").fill("no such source anywhere");
  await expect(page.getByTestId("sources-none")).toContainText("No source matches this filter.");
  await page.getByRole("button", { name: "Show all sources" }).click();
  await expect(rows).toHaveCount(all);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "sources-390", { fullPage: false });

  await page.goto("/dashboard/no-such-page");
  await expect(page.getByTestId("dashboard-not-found")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the overview" }).click();
  await page.waitForURL(/\/dashboard$/);
});
