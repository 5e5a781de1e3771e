// Analytics: lookups and assessments made through the API show up as totals and charts with the API's own numbers;
// the range selector changes the days shown and a range that cannot be read is explained in words; the overview
// charts the month's usage per key and per endpoint beside the meter. Requests that were refused show as the error
// rate per day (chart and table) and the top error statuses in words.
import { expect, test, type Page } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { createKey, snap } from "./helpers";
import { expectNoSidewaysScroll } from "./narrow";

const fmt = new Intl.NumberFormat("en-US");

test("analytics: totals and charts of the workspace's lookups and assessments, a range selector, and the overview's month chart", async ({
  page,
  request,
}, testInfo) => {
  const first = await newWorkspace(page, "Analytics", ["suite_business"]);
  const second = await createKey(page, "Second key");
  const auth = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
  for (const ip of ["8.8.8.8", "1.1.1.1"])
    expect((await request.get(`/v1/ip/${ip}/geo`, auth(first))).status()).toBe(200);
  expect((await request.get("/v1/asn/15169", auth(second))).status()).toBe(200);
  for (const ip of ["203.0.113.10", "198.51.100.20"]) {
    const res = await request.post("/v1/assess", {
      ...auth(first),
      // The second one from a scripting tool, so the top signals have a named signal (ua_automation) to show.
      data: {
        event: "signup",
        ip,
        email: `person@example.com`,
        user_agent: ip === "198.51.100.20" ? "python-requests/2.31" : "Mozilla/5.0",
      },
    });
    expect(res.status()).toBe(200);
  }
  const api = await (await request.get("/v1/analytics/timeseries?days=30", auth(first))).json();
  expect(api.totals.assessments).toBe(2);
  expect(api.endpoints.map((e: { endpoint: string }) => e.endpoint)).toEqual(
    expect.arrayContaining(["ip.geo", "asn.lookup"]),
  );

  await page.goto("/dashboard/analytics");
  await expect(page.getByRole("heading", { name: "Analytics", level: 1 })).toBeVisible();
  await expect(page.getByTestId("total-units")).toHaveText(fmt.format(api.totals.units));
  await expect(page.getByTestId("total-requests")).toHaveText(fmt.format(api.totals.requests));
  await expect(page.getByTestId("total-assessments")).toHaveText("2");
  for (const [id, name] of [
    ["units-endpoint", "Units per day by endpoint"],
    ["units-key", "Units per day by key"],
    ["risk", "Assessments per day by risk level"],
    ["decisions", "Assessments per day by decision"],
  ]) {
    const chart = page.getByTestId(`chart-${id}`);
    await expect(chart.getByRole("img", { name, exact: true })).toBeVisible();
    await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
  }
  await expect(page.getByTestId("chart-units-key")).toContainText("Second key");
  await expect(page.getByTestId("chart-failures-empty")).toBeVisible();
  // The text alternative holds the same numbers.
  const byEndpoint = page.getByTestId("chart-units-endpoint");
  await byEndpoint.getByText("Show as table").click();
  // Endpoints by their names in words (the one table the overview, the keys page and the history also read).
  await expect(byEndpoint.getByRole("table")).toContainText("IP geolocation");
  await expect(byEndpoint.getByRole("table")).not.toContainText("ip.geo");
  await expect(byEndpoint.getByRole("row")).toHaveCount(31);
  // Top signals by their names, each name whole (wrapped, never cut), the code small beside it.
  await expectTopSignalsReadable(page);
  await expect(page.getByTestId("top-bars-signals")).toContainText("Automation tool user agent");
  await snap(page, testInfo, "analytics-1280");

  await page.getByTestId("analytics-range").selectOption("7");
  await expect(byEndpoint.getByRole("row")).toHaveCount(8);
  await expect(page.getByTestId("total-assessments")).toHaveText("2");

  // A range that cannot be read is explained under the dates by their labels, before any request, and the charts of
  // the last range stay; so is one longer than the 366 days the page reads.
  await page.getByTestId("analytics-range").selectOption("custom");
  await page.getByTestId("analytics-to").fill("2026-01-01");
  await page.getByTestId("analytics-from").fill("2026-02-01");
  await expect(page.getByTestId("analytics-range-problem")).toHaveText(
    "The “To” date must be on or after the “From” date.",
  );
  await expect(page.getByTestId("analytics-to")).toHaveAccessibleDescription(/must be on or after the “From” date/);
  await expect(page.getByTestId("error-note")).toHaveCount(0);
  await expect(page.getByTestId("total-assessments")).toBeVisible();
  await page.getByTestId("analytics-from").fill("2019-01-01");
  await expect(page.getByTestId("analytics-range-problem")).toHaveText(
    "Choose at most 366 days from “From” to “To” (these dates cover 2,558).",
  );
  await expect(page.locator("main")).not.toContainText(/\buntil\b|\bsince\b/);
  await page.getByTestId("analytics-range").selectOption("30");
  await expect(page.getByTestId("analytics-range-problem")).toHaveCount(0);
  await expect(page.getByTestId("error-note")).toHaveCount(0);
  await expect(page.getByTestId("total-assessments")).toHaveText("2");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("img", { name: "Assessments per day by risk level", exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectTopSignalsReadable(page);
  await snap(page, testInfo, "analytics-390");

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/dashboard");
  const month = page.getByTestId("month-usage");
  await expect(month.getByRole("img", { name: "Units per day by key", exact: true })).toBeVisible();
  await expect(month.getByTestId("chart-month-key")).toContainText("Second key");
  await expect(page.getByTestId("usage-meter")).toBeVisible();
  await month.getByRole("button", { name: "Per endpoint" }).click();
  await expect(month.getByRole("button", { name: "Per endpoint" })).toHaveAttribute("aria-pressed", "true");
  await expect(month.getByTestId("chart-month-endpoint")).toContainText("IP geolocation");
  // The per-endpoint table stays inside its card (it scrolls inside its own box when wider).
  await month.getByTestId("chart-month-endpoint").getByText("Show as table").click();
  await expect(month.getByRole("table")).toContainText("AS number lookup");
  await expectTableInsideCard(page);
  await snap(page, testInfo, "overview-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await expectTableInsideCard(page);
  await snap(page, testInfo, "overview-390");
});

test("analytics: the error rate of the workspace's requests per day and the top error statuses, in words", async ({
  page,
  request,
}, testInfo) => {
  const key = await newWorkspace(page, "AnalyticsErrors", ["suite_business"]);
  const auth = { headers: { authorization: `Bearer ${key}` } };
  expect((await request.get("/v1/ip/8.8.8.8/geo", auth)).status()).toBe(200);
  expect((await request.get("/v1/analytics/timeseries?days=0", auth)).status()).toBe(400);
  for (const id of ["rule_nope", "rule_gone"]) expect((await request.get(`/v1/rules/${id}`, auth)).status()).toBe(404);
  const api = await (await request.get("/v1/analytics/timeseries?days=7", auth)).json();
  // The dashboard's own calls (signing up, the plan page) are requests of the workspace too: at least these four.
  expect(api.responses.totals).toMatchObject({ clientErrors: 3, serverErrors: 0 });
  expect(api.responses.totals.requests).toBeGreaterThanOrEqual(4);
  expect(api.responses.topErrors).toEqual([
    { status: 404, code: "NOT_FOUND", requests: 2 },
    { status: 400, code: "INVALID_REQUEST", requests: 1 },
  ]);

  await page.goto("/dashboard/analytics");
  await page.getByTestId("analytics-range").selectOption("7");
  const chart = page.getByTestId("chart-request-errors");
  await expect(chart.getByRole("img", { name: "Request error rate per day", exact: true })).toBeVisible();
  await expect(chart.locator(".recharts-line-dots circle").first()).toBeVisible(); // one day with requests: a dot per line
  await expect(page.getByTestId("total-error-rate")).not.toHaveText("—");
  await expect(page.getByTestId("total-error-rate").locator("xpath=..")).toContainText("3 of");
  // The top statuses say what they mean; no error code is shown raw.
  const top = page.getByTestId("top-errors");
  await expect(top.getByTestId("top-error-404")).toContainText("404 Not found");
  await expect(top.getByTestId("top-error-404")).toContainText("2");
  await expect(top.getByTestId("top-error-400")).toContainText("400 Invalid request");
  await expect(top).not.toContainText(/[A-Z]{3,}_[A-Z_]+/);
  const endpoints = page.getByTestId("endpoint-errors");
  await expect(endpoints.getByRole("row").nth(1)).toContainText("Read a rule");
  await expect(endpoints.getByRole("row").nth(1)).toContainText("GET /v1/rules/{id}");
  // The dashboard's own calls are counted too, each in words (never by its procedure: "Account: overview").
  await expect(endpoints.getByRole("rowheader").filter({ hasText: "Workspace overview" })).toHaveText(
    "Workspace overview (plan, usage and role)Dashboard",
  );
  for (const name of await endpoints.getByRole("rowheader").allTextContents())
    expect(name, "an endpoint named by its procedure").not.toMatch(/^[A-Z][a-z]+: [a-z]/);
  // The chart's table alternative: the newest day first, with today's requests, 4xx and 5xx.
  await chart.getByText("Show as table").click();
  const todayRow = chart.getByRole("row").nth(1);
  await expect(todayRow.getByRole("rowheader")).toHaveText(new Date().toISOString().slice(0, 10));
  await expect(todayRow.getByRole("cell").nth(1)).toHaveText("3");
  await expect(todayRow.getByRole("cell").nth(2)).toHaveText("0");
  await expect(chart.getByRole("row")).toHaveCount(8);
  // Keyboard: the table toggle is reachable and opens with Enter.
  await chart.locator("summary").focus();
  await page.keyboard.press("Enter");
  await expect(chart.locator("details")).not.toHaveAttribute("open", "");
  await page.keyboard.press("Enter");
  await expect(chart.locator("details")).toHaveAttribute("open", "");
  await snap(page, testInfo, "analytics-errors-1280");

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(chart.getByRole("img", { name: "Request error rate per day", exact: true })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "analytics-errors-390");
});

/** Each top signal reads as its name (not a code), and no name is cut: its box holds all its text. */
async function expectTopSignalsReadable(page: Page): Promise<void> {
  const names = page.getByTestId("top-bars-signals").getByTestId("top-bar-name");
  await expect(names.first()).toBeVisible();
  for (const name of await names.allTextContents()) expect(name).not.toMatch(/^[a-z]+(_[a-z0-9]+)+$/);
  const cut = await names.evaluateAll((els) =>
    els
      .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > window.innerWidth)
      .map((e) => e.textContent),
  );
  expect(cut, "signal names cut or past the right edge").toEqual([]);
}

/** The overview's usage card holds the per-endpoint table: nothing of it is drawn past the card's right edge. */
async function expectTableInsideCard(page: Page): Promise<void> {
  const past = await page.getByTestId("month-usage").evaluate((el) => {
    const card = el.closest(".card")!.getBoundingClientRect().right;
    const scroller = el.querySelector(".chart-table-scroll")!.getBoundingClientRect().right;
    return Math.round(scroller - card);
  });
  expect(past, "the table's box past the card's right edge (px)").toBeLessThanOrEqual(0);
}
