// "Scan a lockfile" on the vulnerability page (issue 25, item 9), against the fake package sources e2e/serve.mjs
// starts: the cost is shown before anything is charged, the scan charges one unit per package version, malware
// comes first, the table filters and opens, CSV and SARIF are rendered in the browser from the answer, and at
// 390 px nothing scrolls sideways. A plan without bulk lookups is told why instead of running.
import { expect, type Page, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { seriousViolations as violationsOf } from "./axe";
import { newWorkspace } from "./dashboard-steps";
import { parseCsv, snap } from "./helpers";
import { expectActionsInView, expectNoSidewaysScroll } from "./narrow";

const FIXTURES = path.join(process.cwd(), "test", "vulnerabilities", "scan-fixtures");
const LOCKFILE = path.join(FIXTURES, "package-lock.json");

async function openScan(page: Page) {
  await page.goto("/dashboard/vulnerabilities");
  await expect(page.getByTestId("usage-used")).toHaveText("0");
  await page.getByRole("tab", { name: "Scan a lockfile" }).click();
  await expect(page.getByTestId("scan-panel")).toBeVisible();
}

async function expectUsed(page: Page, used: number) {
  await expect(page.getByTestId("usage-used")).toHaveText(String(used));
}

/** axe's serious and critical findings inside the scan's tab (labels, contrast, names of the row buttons). */
const seriousViolations = (page: Page) => violationsOf(page, { include: "#tabpanel-scan" });

/** The text of the file a click on `button` downloads. */
async function downloaded(page: Page, button: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
  return readFileSync((await file.path())!, "utf8");
}

test("a lockfile scan shows its cost first, then malware first, filters, opens a row and downloads CSV and SARIF", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await newWorkspace(page, "Lockfile scans", ["suite_business"]);
  await openScan(page);

  // The cost before anything runs: five distinct versions (jquery 3.4.1 is listed twice), two dependencies skipped.
  await page.getByLabel("Or choose a file").setInputFiles(LOCKFILE);
  const cost = page.getByTestId("scan-cost");
  await expect(cost.getByTestId("scan-cost-summary")).toContainText("package-lock.json: 5 package versions");
  await expect(cost.getByTestId("scan-units")).toHaveText("5 units");
  await cost.getByRole("button", { name: "2 dependencies not scanned (no registry version, no cost)" }).click();
  await expect(cost.getByTestId("scan-skipped")).toContainText("from-git");
  await expect(cost.getByTestId("scan-skipped")).toContainText("local-lib");
  await expectUsed(page, 0);

  await page.getByRole("button", { name: "Scan 5 packages (5 units)" }).click();
  const result = page.getByTestId("scan-result");
  await expect(result.getByRole("heading", { name: "5 package versions scanned" })).toBeVisible();
  await expectUsed(page, 5);
  await expect(page.getByTestId("quota-change")).toContainText("(5 units)");

  // Summary first: malware before the upgrades, each upgrade naming the smallest fixing version.
  await expect(result.getByTestId("scan-count-malware")).toHaveText("1");
  await expect(result.getByTestId("scan-count-advisory")).toHaveText("4");
  await expect(result.getByTestId("scan-severity-high")).toHaveText("1");
  const steps = result.getByTestId("scan-step");
  await expect(steps.first()).toHaveAttribute("data-kind", "remove");
  await expect(steps.first()).toContainText("tinted-logs 1.4.2 is reported as malicious");
  await expect(steps.first()).toContainText("MAL-2026-0101");
  await expect(steps.filter({ hasText: "jquery" })).toContainText("jquery 3.4.1 → 3.5.0 (fixes 1 advisory)");
  await expect(steps.filter({ hasText: "jquery" })).toContainText("KEV");

  const table = page.getByTestId("scan-table");
  const rows = table.getByTestId("scan-row");
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toHaveAttribute("data-package", "tinted-logs@1.4.2");
  await expect(rows.first()).toContainText("Remove");
  await snap(page, testInfo, "scan-summary-1280");

  // Filters: by severity, then by what was found, then cleared.
  await table.getByLabel("Severity").selectOption("high");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-package", "@acme/widget@1.0.0");
  await table.getByLabel("Severity").selectOption("critical");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-package", "tinted-logs@1.4.2");
  await table.getByLabel("Severity").selectOption("");
  await table.getByLabel("Found").selectOption("kev");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-package", "jquery@3.4.1");
  await expect(table.getByTestId("scan-range")).toContainText("Packages 1–1 of 1 (5 scanned)");

  // A row opens to its advisories (KEV, the fixing version) and the verdict's reasons, from the keyboard.
  await rows.first().getByRole("button", { name: "Show details of jquery 3.4.1" }).focus();
  await page.keyboard.press("Enter");
  const details = table.getByTestId("scan-details");
  await expect(details.getByTestId("scan-advisory")).toContainText("GHSA-jpcq-cgw6-v4j6");
  await expect(details.getByTestId("scan-advisory")).toContainText("KEV");
  await expect(details.getByTestId("scan-advisory")).toContainText("Fixed in 3.5.0");
  await expect(details.getByTestId("scan-verdict-reasons")).toContainText("exploited in the wild (CISA KEV)");
  await expect(details.getByTestId("scan-finding")).toContainText("Unmaintained");
  await expect(details.getByTestId("scan-kev")).toContainText("CVE-2020-11023");
  await expect(rows.first().getByRole("button", { name: "Hide details of jquery 3.4.1" })).toHaveAttribute(
    "aria-expanded",
    "true",
  );
  expect(await seriousViolations(page), "axe on the scan with a row open").toEqual([]);
  await snap(page, testInfo, "scan-row-1280");
  await table.getByRole("button", { name: "Clear filters" }).click();
  await expect(rows).toHaveCount(5);

  // Downloads are rendered here from the answer: no second scan, no unit.
  const csv = parseCsv(await downloaded(page, "Download CSV"));
  expect(csv[0]!.slice(0, 6)).toEqual(["ecosystem", "name", "version", "line", "dev", "kind"]);
  const malware = csv.find((r) => r[1] === "tinted-logs" && r[5] === "malware");
  expect(malware?.[6]).toBe("MAL-2026-0101");
  const jquery = csv.find((r) => r[1] === "jquery" && r[5] === "advisory");
  expect(jquery?.slice(6, 8)).toEqual(["GHSA-jpcq-cgw6-v4j6", "moderate"]);
  const sarif = JSON.parse(await downloaded(page, "Download SARIF"));
  expect(sarif.version).toBe("2.1.0");
  const run = sarif.runs[0];
  expect(run.artifacts).toEqual([{ location: { uri: "package-lock.json" } }]);
  expect(run.results.map((r: { ruleId: string }) => r.ruleId)).toEqual(
    expect.arrayContaining(["MAL-2026-0101", "GHSA-jpcq-cgw6-v4j6", "supply-chain/unmaintained"]),
  );
  expect(run.results[0]).toMatchObject({ ruleId: "MAL-2026-0101", level: "error" });
  await expectUsed(page, 5);

  // 390 px: nothing scrolls sideways, every action stays in view, with jquery's row still open.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(table.getByTestId("scan-details")).toContainText("GHSA-jpcq-cgw6-v4j6");
  expect(await seriousViolations(page), "axe on the scan at 390 px").toEqual([]);
  await expectNoSidewaysScroll(page);
  for (const id of ["scan-panel", "scan-result", "scan-table"])
    await expectActionsInView(page.getByTestId(id), `the scan's ${id}`);
  await snap(page, testInfo, "scan-390");
  for (const [name, region] of [
    ["scan-summary-390", result],
    ["scan-row-390", table],
  ] as const) {
    await region.screenshot({ path: testInfo.outputPath(`${name}.png`) });
    await testInfo.attach(name, { path: testInfo.outputPath(`${name}.png`), contentType: "image/png" });
  }
});

test("a plan without bulk lookups is told why a lockfile of several packages cannot run, and scans one", async ({
  page,
}) => {
  await newWorkspace(page, "Free scans", []);
  await openScan(page);

  await page.getByLabel("Lockfile or SBOM").fill(readFileSync(LOCKFILE, "utf8"));
  await expect(page.getByTestId("scan-units")).toHaveText("5 units");
  await expect(page.getByTestId("scan-blocked")).toContainText(
    "A scan of more than one package needs bulk lookups, which this workspace's plan does not include",
  );
  await expect(page.getByTestId("scan-blocked").getByRole("link", { name: "See the plans" })).toBeVisible();
  await expect(page.getByTestId("run-scan")).toBeDisabled();
  await expectUsed(page, 0);

  // A broken file: the line that could not be read, before anything is charged.
  await page.getByLabel("Format").selectOption("package-lock");
  await page.getByLabel("Lockfile or SBOM").fill(readFileSync(path.join(FIXTURES, "broken-lock.json"), "utf8"));
  await expect(page.getByTestId("scan-preview-error")).toContainText(/line \d+/i);
  await expect(page.getByTestId("scan-preview-error")).toContainText("no unit was used");
  await expect(page.getByTestId("run-scan")).toBeDisabled();

  // One package is allowed on every plan.
  await page.getByLabel("Format").selectOption("");
  await page.getByLabel("Lockfile or SBOM").fill("jinja2==2.10\n");
  await expect(page.getByTestId("scan-cost-summary")).toContainText("requirements.txt: 1 package version");
  await expect(page.getByTestId("scan-blocked")).toHaveCount(0);
  await page.getByRole("button", { name: "Scan 1 package (1 unit)" }).click();
  await expect(
    page.getByTestId("scan-result").getByRole("heading", { name: "1 package version scanned" }),
  ).toBeVisible();
  await expectUsed(page, 1);
  await expect(page.getByTestId("scan-row")).toHaveCount(1);
});

test("a scan whose advisory source fails shows one reason, the server's, and what the meter says it cost", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Scan outage", ["suite_business"]);
  await openScan(page);
  const reason = "The OSV advisory database is unavailable (connection failed); try again in a moment.";
  // The scan call answered (inside tRPC's batch) as the server answers a source outage: 503 UPSTREAM_UNAVAILABLE.
  await page.route("**/api/trpc/**", async (route) => {
    const paths = new URL(route.request().url()).pathname.replace(/^\/api\/trpc\//, "").split(",");
    if (!paths.includes("vulnerabilities.scan")) return route.continue();
    await route.fulfill({
      status: 503,
      json: paths.map(() => ({
        error: {
          message: reason,
          code: -32603,
          data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 503, appCode: "UPSTREAM_UNAVAILABLE" },
        },
      })),
    });
  });
  await page.getByLabel("Or choose a file").setInputFiles(LOCKFILE);
  await page.getByRole("button", { name: "Scan 5 packages (5 units)" }).click();
  const note = page.getByTestId("scan-error");
  // One message, the server's (it names the cause), and what the usage meter says the attempt cost; no second
  // cause of the page's own ("did not answer in time").
  await expect(note.locator("p")).toHaveText([reason, "No unit was used."]);
  await expectUsed(page, 0);
  await snap(page, testInfo, "scan-outage-1280");

  // The outage belonged to that file: once the text is replaced, only the new text's own problem is shown.
  await page.getByLabel("Lockfile or SBOM").fill("not a lockfile at all");
  await expect(page.getByTestId("scan-preview-error")).toBeVisible();
  await expect(page.getByTestId("scan-error")).toHaveCount(0);
  await expect(page.getByText(reason)).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, "scan-outage-replaced-390");
});

test("a scan saved to a project: the name checked by the API's rule, what is new since, and the way to its history", async ({
  page,
}, testInfo) => {
  test.setTimeout(150_000);
  await newWorkspace(page, "Project scans", ["suite_business"]);
  await openScan(page);
  await page.getByLabel("Or choose a file").setInputFiles(LOCKFILE);
  await expect(page.getByTestId("scan-units")).toHaveText("5 units");
  const run = page.getByTestId("run-scan");

  // A name the API refuses is refused here, before anything is sent; the button waits for a good one.
  const project = page.getByLabel("Project (optional)");
  for (const bad of ["acme/..", "acme//web", "."]) {
    await project.fill(bad);
    await expect(project).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#scan-project-hint")).toContainText("none empty and none only dots");
    await expect(run).toBeDisabled();
  }
  await project.fill("acme/web");
  await expect(project).not.toHaveAttribute("aria-invalid", "true");
  await run.click();

  const saved = page.getByTestId("scan-saved");
  await expect(saved.getByRole("heading", { name: "Saved to project acme/web" })).toBeVisible();
  await expect(saved.getByTestId("scan-saved-diff")).toContainText("This is the project's first scan");
  await expectUsed(page, 5);
  await expect(page.getByTestId("scan-result")).toBeVisible(); // the report itself, as without a project

  // The same file again: nothing is new since the first scan, and the saved scan says so in words.
  await run.click();
  await expect(saved.getByTestId("scan-saved-diff")).toContainText("Since the project's previous scan of default");
  await expect(saved.getByTestId("scan-saved-diff")).toContainText("0 new findings, that is, found now and not in");
  await expectUsed(page, 10);
  await snap(page, testInfo, "scan-saved-1280");
  expect(await seriousViolations(page)).toEqual([]);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "scan-saved-390");

  // The link opens the project's page with its history: two scans of the default ref.
  await saved.getByRole("link", { name: "Open acme/web's history" }).click();
  await expect(page).toHaveURL(/\/dashboard\/projects\?project=acme%2Fweb$/);
  const detail = page.getByTestId("project-detail");
  await expect(detail.getByRole("heading", { name: "acme/web" })).toBeVisible();
  await expect(page.locator('[data-testid=project][data-name="acme/web"]')).toContainText("2 scans");
});

test("a scan's packages page by keyboard, fifty at a time, the focus staying on the pager", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await newWorkspace(page, "Lockfile pager", ["suite_business"]);
  await openScan(page);
  // 120 package versions: three pages of the table (50, 50 and 20).
  const lines = Array.from({ length: 120 }, (_, i) => `pager-pkg-${String(i + 1).padStart(3, "0")}==1.0.0`);
  await page.getByLabel("Lockfile or SBOM").fill(`${lines.join("\n")}\n`);
  await expect(page.getByTestId("scan-cost-summary")).toContainText("requirements.txt: 120 package versions");
  await page.getByRole("button", { name: "Scan 120 packages (120 units)" }).click();
  await expect(
    page.getByTestId("scan-result").getByRole("heading", { name: "120 package versions scanned" }),
  ).toBeVisible({ timeout: 60_000 });

  const table = page.getByTestId("scan-table");
  const rows = table.getByTestId("scan-row");
  const range = table.getByTestId("scan-range");
  const previous = table.getByRole("button", { name: "Previous page" });
  const next = table.getByRole("button", { name: "Next page" });
  await expect(range).toHaveText("Packages 1–50 of 120");
  await expect(rows).toHaveCount(50);
  await expect(table.getByText("Page 1 of 3")).toBeVisible();
  await expect(previous).toBeDisabled();

  // From the last row's button, Tab reaches Next page; Enter turns the page and the focus stays on it.
  await rows.last().getByRole("button").first().focus();
  await page.keyboard.press("Tab");
  await expect(next).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(range).toHaveText("Packages 51–100 of 120");
  await expect(rows).toHaveCount(50);
  await expect(table.getByText("Page 2 of 3")).toBeVisible();
  await expect(next).toBeFocused();
  const secondPage = await rows.first().getAttribute("data-package");

  // The last page: Next page is disabled there, so the focus goes to Previous page, not the page's top.
  await page.keyboard.press("Enter");
  await expect(range).toHaveText("Packages 101–120 of 120");
  await expect(rows).toHaveCount(20);
  await expect(next).toBeDisabled();
  await expect(previous).toBeFocused();
  await snap(page, testInfo, "scan-pager-last-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "scan-pager-last-390");
  await page.setViewportSize({ width: 1280, height: 800 });

  // Back by keyboard: page 2 again with the same rows, then page 1, where Previous page is disabled: Next page has it.
  await page.keyboard.press("Enter");
  await expect(range).toHaveText("Packages 51–100 of 120");
  await expect(rows.first()).toHaveAttribute("data-package", secondPage!);
  await expect(previous).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(range).toHaveText("Packages 1–50 of 120");
  await expect(previous).toBeDisabled();
  await expect(next).toBeFocused();
  await expect(await seriousViolations(page)).toEqual([]);
});
