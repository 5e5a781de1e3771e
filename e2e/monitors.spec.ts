// Monitors in the dashboard, the journey of issue 26: the plan notice on Free; then scan a local site, "Watch this
// host", read the monthly units before saving, save, run now; the site breaks, run again, and the alert shows its
// state before → after in the timeline. The list at 390 px without sideways scroll; screenshots at 390 and 1280 px.
// Then a package report's "Watch this package" makes a monitor of that version's advisories.
import { expect, test, type Page } from "@playwright/test";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { newWorkspace } from "./dashboard-steps";
import { failInBatch, grantPlans, planSet, snap, unavailable } from "./helpers";

let site: http.Server;
let siteUrl = "";
let broken = false;

test.beforeAll(async () => {
  // Healthy: answers 200 with the usual security headers. Broken: answers 503 with none of them.
  site = http.createServer((_req, res) => {
    if (broken) return res.writeHead(503, { "content-type": "text/plain" }).end("down");
    res
      .writeHead(200, {
        "content-type": "text/html",
        "content-security-policy": "default-src 'self'",
        "x-frame-options": "DENY",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
      })
      .end("<html><p>shop</p></html>");
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});
test.afterAll(() => new Promise<void>((r) => site.close(() => r())));

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

async function runNow(page: Page, runsBefore: number) {
  await page.getByRole("button", { name: "Run now" }).click();
  await expect(page.getByTestId("timeline-run")).toHaveCount(runsBefore + 1, { timeout: 90_000 });
}

test("from a scan result to an alert in the timeline", async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  await newWorkspace(page, "Monitors", []);
  await page.goto("/dashboard/monitors");
  await expect(page.getByTestId("plan-gate")).toContainText("Monitors need");

  await grantPlans(page, ["suite_business"]);
  await page.goto("/dashboard/monitors");
  await expect(page.getByRole("link", { name: "Monitors" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("monitors-empty")).toBeVisible();

  await page.goto("/dashboard/scans");
  await page.getByLabel("Site").fill(siteUrl);
  await page.getByRole("button", { name: "Scan" }).click();
  await expect(page.getByTestId("scan-grade")).toBeVisible({ timeout: 60_000 });
  await page.getByTestId("watch-host").click();

  await expect(page.getByRole("heading", { name: "New monitor" })).toBeVisible();
  await expect(page.getByLabel("Target")).toHaveValue(new RegExp(`^http://127.0.0.1:${new URL(siteUrl).port}`));
  await expect(page.getByRole("checkbox", { name: /Website grade/ })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: /Reachability/ })).toBeChecked();
  // Suite Business runs monitors hourly: 2 checks × 720 runs.
  await page.getByLabel("Interval").selectOption("1h");
  await expect(page.getByTestId("monitor-estimate")).toHaveText(
    "This monitor will use about 1,440 units a month (2 checks × 720 runs a month); your monitors would then use 1,440 of your 25,000-unit monthly allowance.",
  );
  await page.getByLabel("Name (optional)").fill("Shop front");
  await page.getByRole("button", { name: "Create monitor" }).click();

  await expect(page.getByRole("heading", { name: "Shop front" })).toBeVisible();
  await expect(page.getByTestId("timeline-empty")).toBeVisible();
  await expect(page.getByText("Running now costs 2 units (one per check)")).toBeVisible();
  await runNow(page, 0);
  await expect(page.locator('[data-check="reachability"]').first()).toContainText("OK — online");

  broken = true;
  await runNow(page, 1);
  const alert = page.locator('[data-testid="timeline-alert"][data-check="reachability"]');
  await expect(alert).toContainText("Reachability changed (critical)");
  await expect(alert.getByTestId("alert-change")).toHaveText("online → offline");
  await expect(page.locator('.check-state[data-check="reachability"]')).toContainText("Problem — offline");
  // Alert settings: email to the owners by default; turned off and saved; webhooks named with their event types.
  const settings = page.getByTestId("alert-settings");
  await expect(settings.getByRole("radio", { name: "The workspace's owners" })).toBeChecked();
  // Chosen members with none chosen: saving waits, and says why beside the button.
  const save = settings.getByRole("button", { name: "Save email settings" });
  await settings.getByRole("radio", { name: "Chosen members" }).check();
  await expect(save).toBeDisabled();
  await expect(settings.getByTestId("email-save-why")).toHaveText(
    "Choose at least one member to receive the alerts, or send them to the owners.",
  );
  await expect(save).toHaveAccessibleDescription(
    "Choose at least one member to receive the alerts, or send them to the owners.",
  );
  await settings.getByRole("radio", { name: "The workspace's owners" }).check();
  await expect(save).toBeEnabled();
  await expect(settings.getByTestId("email-save-why")).toHaveCount(0);
  await settings.getByRole("checkbox", { name: "Send this monitor's alerts by email" }).uncheck();
  await settings.getByRole("button", { name: "Save email settings" }).click();
  await expect(settings.getByRole("status")).toHaveText("Saved.");
  // Suite Business has no webhooks: the settings say the plan does not include them (the webhook events are named
  // on a plan that has them, in the alert settings journey below).
  await expect(settings.getByTestId("alert-webhooks-plan")).toContainText(
    "webhooks need the Suite Agency or Lookups Growth plan",
  );
  await snap(page, testInfo, "monitor-detail-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page);
  await snap(page, testInfo, "monitor-detail-390");

  await page.getByRole("link", { name: "← Monitors" }).click();
  const card = page.getByTestId("monitor-card");
  await expect(card).toHaveCount(1);
  await expect(card.locator('[data-check="reachability"]')).toHaveAttribute("data-severity", "critical");
  await expect(card.locator('[data-check="reachability"]')).toContainText("Reachability: Problem");
  await expect(card.getByTestId("last-change")).toContainText("Last change:");
  await expect(page.getByTestId("monitor-summary")).toContainText("1,440");
  await noSidewaysScroll(page);
  await snap(page, testInfo, "monitors-list-390");
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, testInfo, "monitors-list-1280");

  // A package report's "Watch this package": a monitor of the packages check, named after the package (a label,
  // not a host).
  await page.goto("/dashboard/vulnerabilities");
  const panel = page.getByTestId("package-panel");
  await panel.getByLabel("Ecosystem").selectOption("npm");
  await panel.locator('input[name="coordinate"]').fill("@acme/widget");
  await panel.locator('input[name="version"]').fill("1.0.0");
  await panel.getByTestId("run-package-report").click();
  await page.getByTestId("watch-package").click();
  await expect(page.getByLabel("Project")).toHaveValue("@acme/widget");
  await expect(page.getByRole("checkbox", { name: /Packages/ })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: /Reachability/ })).not.toBeChecked();
  await expect(page.getByLabel(/Packages, one per line/)).toHaveValue("npm @acme/widget 1.0.0");
  await page.getByRole("button", { name: "Create monitor" }).click();
  await expect(page.getByRole("heading", { name: "@acme/widget" })).toBeVisible();
  await runNow(page, 0);
  await expect(page.locator('.check-state[data-check="packages"]')).toHaveAttribute("data-severity", "critical");
});

test("the monitor form says what is wrong at the field, in the words of its label, and sends nothing", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "MonitorForm", ["suite_business"]);
  await page.goto("/dashboard/monitors/new");
  const form = page.locator("form.monitor-form");
  await form.getByLabel(/^Target/).fill("example.com");
  const days = form.getByLabel("Warn when the certificate expires within (days)");
  await days.fill("0, -3, abc");
  let sent = 0;
  page.on("request", (r) => {
    if (r.url().includes("monitors.create")) sent++;
  });
  await form.getByRole("button", { name: "Create monitor" }).click();
  await expect(days).toHaveAttribute("aria-invalid", "true");
  await expect(days).toHaveAccessibleDescription(/Days must be whole numbers from 1 to 365, separated by commas/);
  await expect(days).toBeFocused();
  await expect(form.getByTestId("monitor-form-problems")).toHaveText(
    "Nothing was saved: correct the field marked above.",
  );
  await expect(form).not.toContainText(/thresholds\.|tls_expiry_days|checks\.\d|Too small|Invalid input/);
  await snap(page, testInfo, "monitor-form-bad-days");

  // The packages check: each line at fault is named with what it needs.
  await days.fill("21, 7");
  await expect(days).not.toHaveAttribute("aria-invalid", "true");
  await form.getByRole("checkbox", { name: /Packages/ }).check();
  const packages = form.getByLabel("Packages, one per line: ecosystem name version");
  await packages.fill("lodash\nnpm left-pad\ncargo serde 1.0.0\nnpm lodash 4.17.20");
  await form.getByRole("button", { name: "Create monitor" }).click();
  await expect(packages).toHaveAccessibleDescription(
    /line 1 needs an ecosystem, a name and a version.*line 3: “cargo” is not one of npm/,
  );
  await expect(packages).toBeFocused();
  await expect(form).not.toContainText(/checks\.\d|Invalid input/);
  expect(sent).toBe(0);

  // A target the API refuses is said at the Target field, by its label.
  await packages.fill("npm lodash 4.17.20");
  await form.getByLabel(/^Target/).fill("not a host!");
  await form.getByRole("button", { name: "Create monitor" }).click();
  await expect(form.getByLabel(/^Target/)).toHaveAccessibleDescription(/^Target must be/);
  // The service's refusal of a field takes the keyboard there too.
  await expect(form.getByLabel(/^Target/)).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel(/^Target/)).toBeFocused();
  await expect(form).not.toContainText(/\btarget must/);
});

test("a monitor's Delete question takes focus on Cancel and closes on Escape; the delete is said on the list", async ({
  page,
}) => {
  await newWorkspace(page, "MonitorDelete", ["suite_business"]);
  await page.goto("/dashboard/monitors/new");
  const form = page.locator("form.monitor-form");
  await form.getByLabel(/^Target/).fill("example.com");
  await form.getByRole("button", { name: "Create monitor" }).click();
  // Not /dashboard/monitors/new, where the form is: the wait must end on the created monitor's page.
  await page.waitForURL((url) => /^\/dashboard\/monitors\/(?!new$)[^/]+$/.test(url.pathname));
  const del = page.getByRole("button", { name: "Delete", exact: true });
  await del.click();
  const question = page.getByRole("alertdialog", { name: "Delete example.com" });
  await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(question).toHaveCount(0);
  await expect(del).toBeFocused();
  // Saving an edit closes the form with the button pressed in it: the focus is back on Edit (it fell to the top).
  await page.getByRole("button", { name: "Edit", exact: true }).press("Enter");
  await page.getByLabel(/^Name/).fill("Shop front");
  await page.getByRole("button", { name: "Save changes" }).press("Enter");
  await expect(page.getByRole("heading", { name: "Shop front" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Edit", exact: true })).toBeFocused();
  // Deleting it lands on the list, where a notice says what went and has the focus (it fell to the page's top).
  await del.press("Enter");
  await page
    .getByRole("alertdialog", { name: "Delete Shop front" })
    .getByRole("button", { name: "Delete monitor" })
    .press("Enter");
  await page.waitForURL(/\/dashboard\/monitors$/);
  await expect(page.getByTestId("done-notice")).toHaveText("Deleted “Shop front”.");
  await expect(page.getByTestId("done-notice")).toBeFocused();
});

test("a monitor's last change that could not be read says so with Retry, never “No change yet.”", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "MonitorLastChange", ["suite_business"]);
  await page.goto("/dashboard/monitors/new");
  const form = page.locator("form.monitor-form");
  await form.getByLabel(/^Target/).fill("example.com");
  await form.getByRole("button", { name: "Create monitor" }).click();
  // On the monitor's page (the address /dashboard/monitors/new would already match a pattern of it).
  await expect(page.getByRole("heading", { name: "example.com", level: 1 })).toBeVisible();
  // The alerts of the list's cards fail (inside tRPC's batch) while the list itself answers.
  const failAlerts = failInBatch(["monitors.alerts"], unavailable("The alerts could not be read; try again shortly."));
  await page.route("**/api/trpc/**", failAlerts);
  await page.goto("/dashboard/monitors");
  const card = page.getByTestId("monitor-card");
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("last-change-error")).toContainText("The last change could not be read.", {
    timeout: 20_000,
  });
  await expect(card).not.toContainText("No change yet.");
  await expect(card).not.toContainText("UPSTREAM_UNAVAILABLE");
  await noSidewaysScroll(page);
  await snap(page, testInfo, "monitors-last-change-error-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page);
  await snap(page, testInfo, "monitors-last-change-error-390");
  // Once the service answers, Retry reads it: a monitor that never ran has no change yet.
  await page.unroute("**/api/trpc/**", failAlerts);
  await card.getByRole("button", { name: "Retry" }).click();
  await expect(card.getByTestId("last-change-error")).toHaveCount(0);
  await expect(card).toContainText("No change yet.");
});

test("a monitor's runs that could not be read say so with Retry, never “No runs yet”", async ({ page }, testInfo) => {
  await newWorkspace(page, "MonitorRuns", ["suite_business"]);
  await page.goto("/dashboard/monitors/new");
  const form = page.locator("form.monitor-form");
  await form.getByLabel(/^Target/).fill("example.com");
  await form.getByRole("button", { name: "Create monitor" }).click();
  // On the monitor's page (the address /dashboard/monitors/new would already match a pattern of it).
  await expect(page.getByRole("heading", { name: "example.com", level: 1 })).toBeVisible();
  // Its runs and alerts fail (inside tRPC's batch) while the monitor itself answers.
  const failRuns = failInBatch(
    ["monitors.runs", "monitors.alerts"],
    unavailable("The runs could not be read; try again shortly."),
  );
  await page.route("**/api/trpc/**", failRuns);
  await page.reload();
  await expect(page.getByTestId("timeline-error")).toContainText("The timeline could not be read.", {
    timeout: 20_000,
  });
  await expect(page.getByTestId("timeline-empty")).toHaveCount(0);
  await expect(page.getByTestId("latest-run-error")).toContainText("The latest run could not be read.");
  await expect(page.locator("main")).not.toContainText("UPSTREAM_UNAVAILABLE");
  await snap(page, testInfo, "monitor-runs-error-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page);
  await snap(page, testInfo, "monitor-runs-error-390");
  await page.unroute("**/api/trpc/**", failRuns);
  // One Retry reads the timeline again, and the latest run that failed with it.
  await page.getByTestId("timeline-error").getByRole("button", { name: "Retry" }).click();
  await expect(page.getByTestId("timeline-error")).toHaveCount(0);
  await expect(page.getByTestId("timeline-empty")).toBeVisible();
  await expect(page.getByTestId("latest-run-error")).toHaveCount(0);

  // A refusal that reading again cannot lift is said in the service's words, with no Retry that could never work.
  const refuseRuns = failInBatch(["monitors.runs"], {
    message: "No monitor with this id in this workspace.",
    code: -32004,
    data: { code: "NOT_FOUND", httpStatus: 404, appCode: "NOT_FOUND" },
  });
  await page.route("**/api/trpc/**", refuseRuns);
  await page.reload();
  const timeline = page.getByRole("region", { name: "Timeline" });
  await expect(timeline.getByTestId("error-note")).toHaveText("No monitor with this id in this workspace.", {
    timeout: 20_000,
  });
  await expect(timeline.getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(page.getByTestId("timeline-empty")).toHaveCount(0);
  await page.unroute("**/api/trpc/**", refuseRuns);
});

test("creating a monitor lands on its page with a line that says so and holds the focus, not on the page's top", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "MonitorCreated", ["suite_business"]);
  await page.goto("/dashboard/monitors/new");
  const form = page.locator("form.monitor-form");
  await form.getByLabel(/^Target/).fill("example.com");
  await form.getByRole("button", { name: "Create monitor" }).press("Enter");
  await expect(page.getByRole("heading", { name: "example.com", level: 1 })).toBeVisible();
  // The button pressed went away with the form: the line saying what was made has the focus (it fell to <body>).
  const notice = page.getByTestId("done-notice");
  await expect(notice).toHaveText("Created the monitor “example.com”.");
  await expect(notice).toBeFocused();
  await snap(page, testInfo, "monitor-created-1280");
  // Its page read again says nothing of a creation.
  await page.reload();
  await expect(page.getByRole("heading", { name: "example.com", level: 1 })).toBeVisible();
  await expect(notice).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page);
});

test("a monitor's alert settings on a plan without webhooks say the plan does not include them, with the plan's link", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "MonitorNoHooks", ["suite_business"]);
  await page.goto("/dashboard/monitors/new");
  const form = page.locator("form.monitor-form");
  await form.getByLabel(/^Target/).fill("example.com");
  await form.getByRole("button", { name: "Create monitor" }).click();
  await expect(page.getByRole("heading", { name: "example.com", level: 1 })).toBeVisible();
  const settings = page.getByTestId("alert-settings");
  // Suite Business has monitors but no webhooks: no way to the webhooks page, whose form its plan refuses.
  await expect(settings).toContainText(
    "To have alerts sent to your systems by webhook: webhooks need the Suite Agency or Lookups Growth plan, and this workspace's plan does not include them.",
  );
  await expect(settings.getByRole("link", { name: "webhooks page" })).toHaveCount(0);
  await expect(settings.getByRole("link", { name: "See the workspace's plan" })).toHaveAttribute(
    "href",
    "/dashboard/plan",
  );
  await expect(settings.getByRole("link", { name: "event log" })).toHaveAttribute("href", "/dashboard/events");
  await settings.scrollIntoViewIfNeeded();
  await snap(page, testInfo, "monitor-alerts-no-webhooks-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page);
  await snap(page, testInfo, "monitor-alerts-no-webhooks-390");
  // With a plan that has webhooks, the settings point to the webhooks page and name the events to choose.
  await planSet(page, ["suite_agency"]);
  await page.reload();
  await expect(settings.getByRole("link", { name: "webhooks page" })).toHaveAttribute("href", "/dashboard/webhooks");
  await expect(settings).not.toContainText("does not include them");
  // The events are named as the webhooks form labels them (the same EVENT_TYPE_LABELS), with the type a receiver gets.
  await expect(settings).toContainText(
    "with the events “Monitor alert” (monitor.alert: a change, a reminder, a skipped run) and “Monitor alert resolved” (monitor.resolved: a problem cleared)",
  );
  await settings.scrollIntoViewIfNeeded();
  await snap(page, testInfo, "monitor-alerts-webhooks-390");
});
