// Device signals in a real browser: a customer's page loads /device.js, which posts its signals to the page's own
// backend; those signals, checked with POST /v1/device/check, flag headless Chromium as automated. Then the
// dashboard's device page diagnoses the visitor's own (headless) browser. In direct mode, a page on another origin
// loads /device.js with a publishable key and gets the diagnosis straight from the API.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";
import { expectNoSidewaysScroll } from "./narrow";

test("a customer page loading device.js: headless Chromium is flagged as automated; the dashboard shows the same", async ({
  page,
  baseURL,
}, testInfo) => {
  const key = await newWorkspace(page, "Device", ["suite_starter"]);

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
  expect(device).toMatchObject({
    visitor_id: expect.stringMatching(/^[a-z0-9]{20,}$/),
    webdriver: true,
    languages: expect.any(Array),
    timezone: expect.any(String),
  });

  const res = await page.request.post("/v1/device/check", {
    headers: { Authorization: `Bearer ${key}` },
    data: { device, ip: "8.8.8.8" },
  });
  expect(res.status()).toBe(200);
  const diagnosis = await res.json();
  expect(diagnosis.automation.verdict).toBe("automated");
  expect(diagnosis.automation.reasons[0]).toContain("navigator.webdriver is true");
  expect(diagnosis.risk.signals.map((s: { code: string }) => s.code)).toContain("device_automation");

  // The page hydrates without an error (React's #418 came from the embed snippet's origin, rendered "" on the server
  // and the page's origin in the browser), and the snippet names this page's own origin.
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => (msg.type() === "error" ? errors.push(msg.text()) : undefined));
  await page.goto("/dashboard/device");
  await expect(page.getByRole("heading", { name: "Device signals" })).toBeVisible();
  await expect(page.getByText(`<script src="${baseURL}/device.js" data-endpoint="/api/device-signals"`)).toBeVisible();
  expect(errors.filter((e) => /418|hydrat/i.test(e))).toEqual([]);
  await snap(page, testInfo, "device-before");
  await page.getByRole("button", { name: "Check this browser" }).click();
  await expect(page.getByTestId("device-verdict")).toHaveText("automated");
  await expect(page.getByTestId("device-diagnosis")).toContainText("navigator.webdriver is true");
  // In words: real plurals, and the bot detector's finding named as a person would (not its value headless_chrome).
  await expect(page.getByTestId("device-diagnosis")).toContainText(
    /Seen in the last \d+ minutes with \d+ accounts?, \d+ emails? and \d+ IP address(es)?\./,
  );
  await expect(page.getByTestId("device-diagnosis")).not.toContainText("(s)");
  await expect(page.getByTestId("device-diagnosis")).not.toContainText("headless_chrome");
  await page.getByRole("button", { name: "Check this browser" }).focus();
  await snap(page, testInfo, "device-diagnosis");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  // At 390 px the embed code keeps its lines whole ("process.env.SERVICE_API_KEY" is never split): each code block
  // scrolls sideways inside itself, reachable by keyboard, and the page does not.
  const blocks = page.locator("pre.embed-code");
  await expect(blocks).toHaveCount(2);
  for (const block of await blocks.all()) {
    const { lines, rendered, scrolls } = await block.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return {
        lines: (el.textContent ?? "").split("\n").length,
        rendered: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size,
        scrolls: el.scrollWidth > el.clientWidth,
      };
    });
    expect(rendered, "rendered lines of an embed code block").toBe(lines);
    expect(scrolls, "the block scrolls sideways rather than wrapping").toBe(true);
    await expect(block).toHaveAttribute("tabindex", "0");
  }
  await snap(page, testInfo, "device-diagnosis-390");
});

test("direct mode: a customer page on another origin posts to /v1/device/check with a publishable key and gets the diagnosis", async ({
  page,
  baseURL,
}, testInfo) => {
  const secret = await newWorkspace(page, "Device direct", ["suite_starter"]);

  // The customer's site: a real HTTP server on 127.0.0.1 (another port, so another origin than the service).
  let pk = "";
  const site = createServer((req, res) => {
    res
      .writeHead(200, { "content-type": "text/html" })
      .end(
        `<!doctype html><title>Checkout</title><h1>Checkout</h1><p id="device-id">waiting</p>` +
          `<script src="${baseURL}/device.js" data-publishable-key="${pk}" data-endpoint="${baseURL}/v1/device/check" async></script>` +
          `<script>addEventListener("service-device-diagnosis", (e) => { document.getElementById("device-id").textContent = e.detail.device_id || "error " + JSON.stringify(e.detail.error); });</script>`,
      );
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  try {
    // The owner creates a publishable key for that origin on the keys page; the list shows its kind and origin.
    await page.goto("/dashboard/keys");
    await page.getByLabel("Key name").fill("Checkout page");
    await page.getByLabel("Kind").selectOption("publishable");
    await page.getByLabel("Allowed web origins (one per line)").fill(siteOrigin);
    await page.getByRole("button", { name: "Create key" }).click();
    pk = (await page.getByTestId("new-api-key").textContent())?.trim() ?? "";
    expect(pk).toMatch(/^pk_live_/);
    const row = page.locator(`[data-testid=key-row][data-key-prefix="${pk.slice(0, 12)}"]`);
    await expect(row.getByTestId("key-kind")).toContainText("Publishable");
    await expect(row.getByTestId("key-origins")).toHaveText(siteOrigin);
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, testInfo, "keys-publishable-390");
    await page.setViewportSize({ width: 1280, height: 800 });

    // The page loads device.js in direct mode: preflight, then the check; the page gets the diagnosis itself.
    const checks: { origin: string | null; status: number }[] = [];
    page.on("response", async (r) => {
      if (r.url() === `${baseURL}/v1/device/check` && r.request().method() === "POST")
        checks.push({ origin: await r.request().headerValue("origin"), status: r.status() });
    });
    await page.goto(`${siteOrigin}/checkout`);
    await expect(page.locator("#device-id")).toHaveText(/^dev_[\w-]{22}$/, { timeout: 20_000 });
    const diagnosis = await page.evaluate(
      () => (window as unknown as { ServiceDevice: { diagnosis: Record<string, any> } }).ServiceDevice.diagnosis,
    );
    // Headless Chromium is still flagged as automated.
    expect(diagnosis.automation.verdict).toBe("automated");
    expect(diagnosis.automation.reasons[0]).toContain("navigator.webdriver is true");
    await expect.poll(() => checks).toEqual([{ origin: siteOrigin, status: 200 }]);
    await snap(page, testInfo, "customer-page-direct");

    // The check cost 1 unit: the next one (the customer's backend with its secret key) is the second.
    const res = await page.request.post("/v1/device/check", {
      headers: { Authorization: `Bearer ${secret}` },
      data: { device: { visitor_id: "backendvisitor01" } },
    });
    expect(res.status()).toBe(200);
    expect(res.headers()["x-service-quota-used"]).toBe("2");

    // The publishable key from any other origin, or on any other route, is refused.
    const elsewhere = await page.request.post("/v1/device/check", {
      headers: { Authorization: `Bearer ${pk}`, Origin: "http://127.0.0.1:1" },
      data: { device: { visitor_id: "backendvisitor01" } },
    });
    expect(elsewhere.status()).toBe(403);
    const otherRoute = await page.request.get("/v1/ip/8.8.8.8", { headers: { Authorization: `Bearer ${pk}` } });
    expect(otherRoute.status()).toBe(403);
    expect((await otherRoute.json()).error.code).toBe("FORBIDDEN");
  } finally {
    await new Promise<void>((resolve) => site.close(() => resolve()));
  }
});
