// Website scans in the dashboard: scan a local site, read the grade card and every test with its fix, the host's
// history, the badge snippet and the workspace's scanned sites; an error state; the public leaderboard and badge;
// 390 px without sideways scroll.
import { expect, test } from "@playwright/test";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";

let site: http.Server;
let siteUrl = "";

test.beforeAll(async () => {
  // A site with HSTS unusable over plain HTTP, no CSP and no framing protection: grade F with many fixes to show.
  site = http.createServer((_req, res) =>
    res
      .writeHead(200, {
        "content-type": "text/html",
        "x-content-type-options": "nosniff",
        "set-cookie": "sessionid=1; Path=/",
      })
      .end("<html><p>shop</p></html>"),
  );
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});
test.afterAll(() => new Promise<void>((r) => site.close(() => r())));

async function noSidewaysScroll(page: import("@playwright/test").Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test("scan a site: grade card, tests with fixes, history, badge snippet, then the public leaderboard", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Scans", ["suite_starter"]);
  await page.goto("/dashboard/scans");
  await expect(page.getByRole("heading", { name: "Website scans" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Website scans" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("scanned-hosts-empty")).toBeVisible();
  await snap(page, testInfo, "scans-empty");

  // Error state: a name that does not resolve costs nothing and says so in words.
  await page.getByLabel("Site").fill("no-such-site.e2e.test");
  await page.getByRole("button", { name: "Scan" }).click();
  await expect(page.getByTestId("error-note")).toContainText("does not resolve");
  await snap(page, testInfo, "scans-error");
  // A refusal of the address is said of the Site field, not of the API's "url".
  await page.getByLabel("Site").fill("not a host!");
  await page.getByRole("button", { name: "Scan" }).click();
  await expect(page.getByTestId("error-note")).toContainText(
    "Site must be an http(s) URL or a host name, without credentials.",
  );
  await expect(page.getByTestId("error-note")).not.toContainText("url:");

  await page.getByLabel("Site").fill(siteUrl);
  await page.getByLabel("Visibility").selectOption("public");
  await page.getByRole("button", { name: "Scan" }).click();
  await expect(page.getByTestId("scan-grade")).toHaveText("F");
  await expect(page.getByTestId("grade-card")).toContainText("127.0.0.1: 0 points");
  const tests = page.getByTestId("scan-tests");
  await expect(tests.locator("li")).toHaveCount(17);
  await expect(tests).toContainText("No Content-Security-Policy header.");
  await expect(tests).toContainText("Fix: Start with Content-Security-Policy: default-src 'self'");
  await expect(page.getByTestId("scan-history").locator("li")).toHaveCount(1);
  await expect(page.getByTestId("badge-snippet")).toContainText("/badges/127.0.0.1.svg");
  // The workspace's scanned sites list it with its grade, and its history opens from there too.
  const listed = page.locator('[data-testid="scanned-host"][data-host="127.0.0.1"]');
  await expect(listed).toContainText("F");
  await expect(listed).toContainText("1 scan");
  await page.getByLabel("Site").focus();
  await snap(page, testInfo, "scans-result");

  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page);
  await snap(page, testInfo, "scans-result-390");
  await page.setViewportSize({ width: 1280, height: 800 });

  const badge = await page.request.get("/badges/127.0.0.1.svg");
  expect(badge.status()).toBe(200);
  expect(badge.headers()["content-type"]).toBe("image/svg+xml; charset=utf-8");
  expect(await badge.text()).toContain("F ·");

  await page.goto("/leaderboard");
  await expect(page.getByRole("heading", { name: "Website security leaderboard" })).toBeVisible();
  await expect(page.locator(".lb-row", { hasText: "127.0.0.1" }).first()).toContainText("F");
  await snap(page, testInfo, "leaderboard");
  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page);
  await snap(page, testInfo, "leaderboard-390");
});
