import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { newWorkspace } from "./dashboard-steps";
import { createKey, parseCsv, snap } from "./helpers";
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
  await expect(page.getByTestId("event-row").first()).toContainText("by The service operator");
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
  await page.route("**/api/trpc/**", async (route) => {
    const paths = new URL(route.request().url()).pathname.replace(/^\/api\/trpc\//, "").split(",");
    const i = paths.indexOf("workspace.events");
    if (i < 0) return route.continue();
    await held;
    const res = await route.fetch();
    const body = (await res.json()) as unknown[];
    body[i] = {
      error: {
        message: "The events could not be read; try again shortly.",
        code: -32603,
        data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500, appCode: "INTERNAL_ERROR" },
      },
    };
    await route.fulfill({ response: res, status: 207, json: body });
  });
  await page.goto("/dashboard/events");
  await expect(page.getByText("Loading events…")).toBeVisible();
  release();
  await expect(page.getByTestId("error-note")).toHaveText("The events could not be read; try again shortly.", {
    timeout: 20_000,
  });
  await snap(page, testInfo, "events-error");
});
