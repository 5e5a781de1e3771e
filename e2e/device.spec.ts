// Device signals in a real browser: a customer's page loads /device.js, which posts its signals to the page's own
// backend; those signals, checked with POST /v1/device/check, flag headless Chromium as automated. Then the
// dashboard's device page diagnoses the visitor's own (headless) browser.
import { expect, test } from "@playwright/test";
import { createFirstWorkspace, grantPlans, signIn, snap, uniqueEmail } from "./helpers";

test("a customer page loading device.js: headless Chromium is flagged as automated; the dashboard shows the same", async ({ page, baseURL }, testInfo) => {
  await signIn(page, uniqueEmail("device"));
  const key = await createFirstWorkspace(page, "Device");
  await grantPlans(page, ["suite_starter"]);

  // The customer's site, played by the browser's request routing: a page with the script tag and its backend. It is
  // routed under the test server's own origin: Chromium refuses a public page's script from the loopback test server
  // (Private Network Access), which a real deployment, public on both sides, never meets.
  const site = `${baseURL}/customer-site`;
  let posted: { device: Record<string, unknown> } | null = null;
  await page.route(`${site}/**`, async (route) => {
    const req = route.request();
    if (req.method() === "POST" && req.url().endsWith("/api/device-signals")) {
      posted = req.postDataJSON();
      return route.fulfill({ status: 204 });
    }
    return route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><title>Sign up</title><h1>Sign up</h1><script src="${baseURL}/device.js" data-endpoint="/customer-site/api/device-signals" async></script>`,
    });
  });
  await page.goto(`${site}/signup`);
  await expect.poll(() => posted, { timeout: 15_000 }).not.toBeNull();
  const device = posted!.device;
  expect(device).toMatchObject({ visitor_id: expect.stringMatching(/^[a-z0-9]{20,}$/), webdriver: true, languages: expect.any(Array), timezone: expect.any(String) });

  const res = await page.request.post("/v1/device/check", { headers: { Authorization: `Bearer ${key}` }, data: { device, ip: "8.8.8.8" } });
  expect(res.status()).toBe(200);
  const diagnosis = await res.json();
  expect(diagnosis.automation.verdict).toBe("automated");
  expect(diagnosis.automation.reasons[0]).toContain("navigator.webdriver is true");
  expect(diagnosis.risk.signals.map((s: { code: string }) => s.code)).toContain("device_automation");

  await page.goto("/dashboard/device");
  await expect(page.getByRole("heading", { name: "Device signals" })).toBeVisible();
  await expect(page.getByText("data-endpoint=\"/api/device-signals\"").first()).toBeVisible();
  await snap(page, testInfo, "device-before");
  await page.getByRole("button", { name: "Check this browser" }).click();
  await expect(page.getByTestId("device-verdict")).toHaveText("automated");
  await expect(page.getByTestId("device-diagnosis")).toContainText("navigator.webdriver is true");
  await page.getByRole("button", { name: "Check this browser" }).focus();
  await snap(page, testInfo, "device-diagnosis");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await snap(page, testInfo, "device-diagnosis-390");
});
