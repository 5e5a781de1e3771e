import { expect, test, type Locator } from "@playwright/test";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { newWorkspace } from "./dashboard-steps";
import { createKey, failInBatch, parseCsv, snap } from "./helpers";
import { expectNoSidewaysScroll } from "./narrow";

test("events: search, a detail panel, the CSV of the current filter, and the Activity view of account changes", async ({
  page,
  request,
}, testInfo) => {
  const key = await newWorkspace(page, "Events", ["suite_starter"]);
  await page.goto("/dashboard/events");
  await expect(page.getByRole("heading", { name: "Events", level: 1 })).toBeVisible();
  // A new workspace already has two account changes (its first key, the operator's plan grant) and no assessment.
  await expect(page.getByTestId("event-row")).toHaveCount(2);
  await expect(page.getByTestId("event-row").first()).toContainText("by the service operator");
  await snap(page, testInfo, "events-first");

  for (const ip of ["203.0.113.10", "198.51.100.20"]) {
    const res = await request.post("/v1/assess", {
      headers: { authorization: `Bearer ${key}` },
      data: {
        event: "signup",
        ip,
        email: `person@${ip === "203.0.113.10" ? "example.com" : "example.org"}`,
        user_agent: "Mozilla/5.0",
      },
    });
    expect(res.status()).toBe(200);
  }
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("event-row").and(page.locator('[data-type="assessment"]'))).toHaveCount(2);

  await page.getByLabel("Search").fill("203.0.113.10");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("event-row")).toHaveCount(1);
  await expect(page.getByTestId("event-row")).toContainText("203.0.113.10");
  await page.getByTestId("event-row").getByRole("button").click();
  const drawer = page.getByTestId("event-drawer");
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole("heading", { name: "Assessment" })).toBeFocused();
  await expect(drawer).toContainText("person@example.com");
  await snap(page, testInfo, "events-drawer");
  // A modal dialog: Tab and Shift+Tab go round its own controls and never reach the page behind it.
  const focusInDrawer = () => page.evaluate(() => !!document.activeElement?.closest("[data-testid=event-drawer]"));
  for (const key of ["Tab", "Tab", "Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
    await page.keyboard.press(key);
    expect(await focusInDrawer(), `focus after ${key}`).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
  expect(download.suggestedFilename()).toMatch(/^events-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = parseCsv(readFileSync((await download.path())!, "utf8"));
  expect(rows[0]).toEqual(["id", "created_at", "request_id", "type", "actor", "ip", "email", "domain", "rule", "data"]);
  expect(rows.slice(1).filter((r) => r.length > 1)).toHaveLength(1);
  expect(rows[1][5]).toBe("203.0.113.10");

  await page.getByLabel("Search").fill("nothing-here.example");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("events-empty")).toBeVisible();

  // Activity: account changes, with who made them.
  await createKey(page, "ci");
  await page.goto("/dashboard/events?view=activity");
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Activity" })).toHaveAttribute("aria-selected", "true");
  const changes = page.getByTestId("event-row");
  await expect(changes).toHaveCount(3);
  expect((await changes.evaluateAll((els) => els.map((e) => e.getAttribute("data-type")))).sort()).toEqual([
    "audit.key.created",
    "audit.key.created",
    "audit.plan.changed",
  ]);
  await expect(changes.first()).toContainText("API key ci");
  await changes.first().getByRole("button").click();
  await expect(drawer.getByTestId("event-actor")).toContainText("@example.test (dashboard)");
  await expect(drawer.getByTestId("event-changes")).toContainText("ci");
  await snap(page, testInfo, "activity-drawer");
  await drawer.getByRole("button", { name: "Close" }).click();

  const [activityCsv] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
  expect(activityCsv.suggestedFilename()).toMatch(/^activity-/);
  const activityRows = parseCsv(readFileSync((await activityCsv.path())!, "utf8"))
    .slice(1)
    .filter((r) => r.length > 1);
  expect(activityRows.map((r) => r[3]).sort()).toEqual([
    "audit.key.created",
    "audit.key.created",
    "audit.plan.changed",
  ]);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId("event-row").first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "activity-390");
});

test("the events page shows its loading state, then a failure in words", async ({ page }, testInfo) => {
  await newWorkspace(page, "EventsErr", []);
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  // Hold the list call, then answer it (inside tRPC's batch) with a failure.
  await page.route(
    "**/api/trpc/**",
    failInBatch(
      ["workspace.events"],
      {
        message: "The events could not be read; try again shortly.",
        code: -32603,
        data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500, appCode: "INTERNAL_ERROR" },
      },
      () => held,
    ),
  );
  await page.goto("/dashboard/events");
  await expect(page.getByText("Loading events…")).toBeVisible();
  release();
  // Said as every failed read is (ReadFailed), not in the service's words.
  await expect(page.locator("main [data-read-failed]")).toHaveText("The events could not be read. Retry", {
    timeout: 20_000,
  });
  await expect(page.locator("main")).not.toContainText("try again shortly");
  await snap(page, testInfo, "events-error");
});

test("events in words: a monitor alert's state before → after, a case resolution by its account, an outcome label, and the type filter for each", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  // A site the monitor watches: up, then down.
  let down = false;
  const site = http.createServer((_req, res) => res.writeHead(down ? 503 : 200).end(down ? "down" : "up"));
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  try {
    const key = await newWorkspace(page, "EventWords", ["suite_business"]);
    const auth = { authorization: `Bearer ${key}` };
    const target = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    const monitor = await request.post("/v1/monitors", {
      headers: auth,
      data: { name: "Shop front", target, checks: ["reachability"], interval: "24h" },
    });
    expect(monitor.status()).toBe(200);
    const { id } = (await monitor.json()) as { id: string };
    expect((await request.post(`/v1/monitors/${id}/run`, { headers: auth })).status()).toBe(200);
    down = true;
    const second = await request.post(`/v1/monitors/${id}/run`, { headers: auth });
    expect(second.status()).toBe(200);
    expect(((await second.json()) as { alerts: unknown[] }).alerts).toHaveLength(1);

    // A scripted login from a private address is sent to review; the case is resolved through the API.
    const assessed = await request.post("/v1/assess", {
      headers: auth,
      data: { event: "login", ip: "10.0.0.8", user_agent: "python-requests/2.31", user_id: "mallory" },
    });
    expect(((await assessed.json()) as { decision: string }).decision).toBe("review");
    const cases = (await (await request.get("/v1/cases", { headers: auth })).json()) as { items: { id: string }[] };
    const resolved = await request.post(`/v1/cases/${cases.items[0]!.id}/resolve`, {
      headers: auth,
      data: { resolution: "fraud", note: "stolen password" },
    });
    expect(resolved.status()).toBe(200);

    await page.goto("/dashboard/events");
    const rows = page.getByTestId("event-row");
    await expect(rows.first()).toBeVisible();
    // No event reads as a bare dash, in the list or its panel.
    for (const summary of await page.locator(".event-summary").allTextContents()) expect(summary.trim()).not.toBe("—");
    await expect(rows.and(page.locator('[data-type="audit.case.resolved"]'))).toContainText(
      /Case of mallory resolved as fraud, by the API key “Default key” \(svc_live_[\w-]+…\)/,
    );
    // The key is said by its name and prefix, never by its internal id (key_…).
    await expect(rows.and(page.locator('[data-type="audit.case.resolved"]'))).not.toContainText(/\bkey_\w/);
    await expect(rows.and(page.locator('[data-type="audit.case.resolved"]'))).not.toContainText("req_");
    await expect(rows.and(page.locator('[data-type="assessment.outcome"]'))).toContainText(
      "Assessment labelled fraud: “stolen password”",
    );

    // The type filter has the monitors' alerts, and case resolutions with their labels.
    const type = page.getByLabel("Type");
    for (const label of ["Monitor alerts", "Case resolutions and outcome labels", "List changes", "Monitor changes"])
      await expect(type.locator("option", { hasText: label })).toHaveCount(1);
    await type.selectOption({ label: "Monitor alerts" });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows).toHaveAttribute("data-type", "monitor.alert");
    await expect(rows).toContainText("Shop front: Reachability changed (problem): online → offline");

    await rows.getByRole("button").click();
    const drawer = page.getByTestId("event-drawer");
    await expect(drawer.getByRole("heading", { name: "Monitor alert" })).toBeFocused();
    await expect(drawer.getByRole("link", { name: "Shop front" })).toHaveAttribute("href", `/dashboard/monitors/${id}`);
    const change = drawer.getByTestId("event-state-change");
    await expect(change.locator("dd")).toHaveText(["online", "offline"]);
    await drawer.getByRole("button", { name: "Show the whole record" }).click();
    await expect(drawer.getByTestId("event-raw")).toContainText('"check": "reachability"');
    await expectInside(drawer, "the event panel at 1280 px");
    await snap(page, testInfo, "events-monitor-alert-1280");

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(change).toBeVisible();
    await expectInside(drawer, "the event panel at 390 px");
    await snap(page, testInfo, "events-monitor-alert-390");
    await page.keyboard.press("Escape");
    await expectNoSidewaysScroll(page);

    await type.selectOption({ label: "Case resolutions and outcome labels" });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(rows).toHaveCount(2);
    expect((await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-type")))).sort()).toEqual([
      "assessment.outcome",
      "audit.case.resolved",
    ]);
    await rows.and(page.locator('[data-type="audit.case.resolved"]')).getByRole("button").click();
    await expect(drawer).toContainText("Case of mallory resolved as fraud");
    await expect(drawer.getByRole("row", { name: /^What/ })).toHaveText(/case of mallory/i);
    await snap(page, testInfo, "events-case-390");
  } finally {
    await new Promise<void>((r) => site.close(() => r()));
  }
});

/** Nothing inside `region` reaches past its right edge, and no text in it scrolls sideways on its own. */
async function expectInside(region: Locator, what: string): Promise<void> {
  const out = await region.evaluate((root) => {
    const edge = root.getBoundingClientRect().right;
    return [...root.querySelectorAll("*")]
      .filter((el) => el.getBoundingClientRect().right > edge + 1 || el.scrollWidth > el.clientWidth + 1)
      .filter((el) => (el as HTMLElement).offsetParent !== null && getComputedStyle(el).overflowX !== "hidden")
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
  });
  expect(out, `${what}: elements running past its edge`).toEqual([]);
}
