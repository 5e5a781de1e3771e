// The vulnerability page against the fake package sources e2e/serve.mjs starts (test/fakes/packages): each
// lookup goes through the dashboard's tRPC endpoint, costs exactly one unit, and the usage meter follows.
import { expect, type Page, test } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";
import { expectActionsInView, expectNoSidewaysScroll } from "./narrow";

async function checkPackage(page: Page, ecosystem: string, coordinate: string, version = "", perPage?: string) {
  const panel = page.getByTestId("package-panel");
  await panel.getByLabel("Ecosystem").selectOption(ecosystem);
  await panel.locator('input[name="coordinate"]').fill(coordinate);
  await panel.locator('input[name="version"]').fill(version);
  if (perPage) await panel.getByLabel("Advisories per page").selectOption(perPage);
  await panel.getByTestId("run-package-report").click();
}

async function expectUsed(page: Page, used: number) {
  await expect(page.getByTestId("quota-after")).toHaveText(String(used));
  await expect(page.getByTestId("usage-used")).toHaveText(String(used));
}

test("a package report shows the severity summary, the advisories and the verdict for a vulnerable version, one unit per lookup", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Vulnerabilities", []);
  await page.goto("/dashboard/vulnerabilities");
  await expect(page.getByRole("heading", { name: "Vulnerabilities", level: 1 })).toBeVisible();
  await expect(page.getByTestId("usage-used")).toHaveText("0");
  await expect(page.getByTestId("package-cost")).toContainText("1 unit");

  // A refused package name is said of the Package field, not of the API's "coordinate:", and costs nothing.
  await checkPackage(page, "npm", "%%%");
  await expect(page.getByTestId("lookup-error").getByTestId("error-note")).toHaveText(
    "Package: Expected an npm package name such as express or @babel/core.",
  );
  await expect(page.getByTestId("usage-used")).toHaveText("0");

  await checkPackage(page, "npm", "@acme/widget", "1.0.0");
  const report = page.getByTestId("package-report");
  await expect(report.getByTestId("package-name")).toHaveText("@acme/widget");
  await expect(report.getByTestId("selected-version")).toHaveText("1.0.0");
  await expect(report.getByTestId("verdict")).toHaveText("affected");
  await expect(report.getByTestId("summary-all-high")).toHaveText("1");
  await expect(report.getByTestId("summary-all-moderate")).toHaveText("1");
  await expect(report.getByTestId("summary-all-critical")).toHaveText("0");
  await expect(report.getByTestId("summary-all-highest")).toHaveText("high");
  await expect(report.getByTestId("summary-selected-highest")).toHaveText("high");

  const advisories = report.getByTestId("advisory");
  await expect(advisories).toHaveCount(2);
  const pollution = advisories.filter({ has: page.getByText("GHSA-35jh-r3h4-6jhm", { exact: true }) });
  await expect(pollution).toContainText("Prototype pollution in @acme/widget");
  await expect(pollution).toContainText("CVE-2024-00001");
  await expect(pollution.getByTestId("advisory-ranges")).toHaveText("<1.0.1");
  await expect(pollution.getByTestId("advisory-fixed")).toHaveText("1.0.1");
  await expect(
    pollution.getByRole("link", { name: "https://github.com/advisories/GHSA-35jh-r3h4-6jhm" }),
  ).toHaveAttribute("href", "https://github.com/advisories/GHSA-35jh-r3h4-6jhm");
  const verdictRow = page.locator('[data-testid=verdict-row][data-advisory="GHSA-35jh-r3h4-6jhm"]');
  await expect(verdictRow.getByTestId("nearest-fixed")).toHaveText("1.0.1");
  await expect(
    page.locator('[data-testid=verdict-row][data-advisory="GHSA-c2qf-rxjj-qqgw"]').getByTestId("nearest-fixed"),
  ).toHaveText("1.1.0");
  await expect(report.getByTestId("report-sources")).toContainText("osv");
  await expect(report.getByTestId("checked-at")).toContainText("UTC");
  await expectUsed(page, 1);
  await snap(page, testInfo, "vulnerabilities-report");

  // The latest release is not affected.
  await checkPackage(page, "npm", "@acme/widget");
  await expect(report.getByTestId("selected-version")).toHaveText("2.0.0");
  await expect(report.getByTestId("verdict")).toHaveText("not affected");
  await expectUsed(page, 2);

  await checkPackage(page, "npm", "no-such-package-anywhere");
  await expect(page.getByTestId("error-note")).toHaveAttribute("data-code", "PACKAGE_NOT_FOUND");
  await expect(page.getByTestId("package-report")).toHaveCount(0);
  await expectUsed(page, 3);
  await snap(page, testInfo, "vulnerabilities-not-found");

  await checkPackage(page, "npm", "@acme/widget", "9.9.9");
  await expect(page.getByTestId("error-note")).toHaveAttribute("data-code", "VERSION_NOT_FOUND");
  await expectUsed(page, 4);

  // A malformed coordinate is refused before a unit is reserved.
  await checkPackage(page, "maven", "no-colon-here");
  await expect(page.getByTestId("error-note")).toHaveAttribute("data-code", "INVALID_REQUEST");
  await expectUsed(page, 4);

  // A package with a known-exploited CVE has it highlighted on the package and on the advisory.
  await checkPackage(page, "composer", "craftcms/cms", "5.5.7");
  await expect(report.getByTestId("verdict")).toHaveText("affected");
  await expect(report.getByTestId("package-kev")).toContainText("CVE-2025-23209");
  await expect(
    report.locator('[data-testid=advisory][data-advisory="GHSA-x684-96hh-833x"]').getByTestId("advisory-kev"),
  ).toContainText("CVE-2025-23209");
  await expect(report.getByTestId("nearest-fixed")).toHaveText("5.5.8");
  await expectUsed(page, 5);
  await snap(page, testInfo, "vulnerabilities-kev-highlight");

  // Paging: each page is one more lookup.
  await checkPackage(page, "npm", "many-vulns", "1.0.0", "25");
  await expect(report.getByTestId("advisories-range")).toHaveText("advisories 1–25 of 50");
  await expect(report.getByTestId("advisory")).toHaveCount(25);
  await expectUsed(page, 6);
  // By keyboard: the last page disables Next, and the focus goes to Previous beside it, not to the page's top.
  const pager = report.getByTestId("advisories-pager");
  await pager.getByRole("button", { name: "Next page (1 unit)" }).focus();
  await page.keyboard.press("Enter");
  await expect(report.getByTestId("advisories-range")).toHaveText("advisories 26–50 of 50");
  await expect(pager.getByRole("button", { name: "Next page (1 unit)" })).toBeDisabled();
  await expect(pager.getByRole("button", { name: "Previous page (1 unit)" })).toBeFocused();
  await expectUsed(page, 7);

  // No advisories: the list says so with the report's own caveat.
  await checkPackage(page, "npm", "no-downloads-yet");
  await expect(report.getByTestId("no-advisories")).toContainText("not a security guarantee");
  await expect(report.getByTestId("verdict")).toHaveText("not affected");
  await expectUsed(page, 8);
});

test("the CVE and known-exploited panels answer from OSV and the shipped catalog, one unit each", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "CVE lookups", []);
  await page.goto("/dashboard/vulnerabilities");
  await expect(page.getByTestId("usage-used")).toHaveText("0");

  await page.getByRole("tab", { name: "CVE lookup" }).click();
  const cve = page.getByTestId("cve-panel");
  await cve.getByLabel("CVE identifier").fill("CVE-2020-11023");
  await cve.getByTestId("run-cve").click();
  await expect(cve.getByTestId("cve-result")).toContainText("GHSA-jpcq-cgw6-v4j6");
  // jQuery's CVE-2020-11023 is in the shipped catalog snapshot (added 2025-01-23).
  await expect(cve.getByTestId("cve-kev")).toContainText("JQuery Cross-Site Scripting (XSS) Vulnerability");
  await expect(cve.getByTestId("cve-kev")).toContainText("added 2025-01-23");
  await expectUsed(page, 1);
  await snap(page, testInfo, "vulnerabilities-cve");

  // A malformed identifier is refused by the field's label, not the API's "cveId:", and costs nothing.
  await cve.getByLabel("CVE identifier").fill("CVE-1");
  await cve.getByTestId("run-cve").click();
  await expect(cve.getByTestId("error-note")).toHaveText(
    "CVE identifier must be a CVE identifier such as CVE-2021-44228.",
  );
  await expectUsed(page, 1);

  await cve.getByLabel("CVE identifier").fill("CVE-1999-99999");
  await cve.getByTestId("run-cve").click();
  await expect(cve.getByTestId("error-note")).toHaveAttribute("data-code", "CVE_NOT_FOUND");
  await expectUsed(page, 2);

  await page.getByRole("tab", { name: "Known-exploited catalog" }).click();
  await expect(cve).toBeHidden();
  const kev = page.getByTestId("kev-panel");
  await kev.getByLabel("Vendor").fill("craft");
  await kev.getByTestId("run-kev").click();
  await expect(kev.getByTestId("kev-row")).toContainText(["CVE-2025-23209"]);
  await expect(kev.getByTestId("kev-result")).toContainText("2025.08.25");
  await expectUsed(page, 3);

  await kev.getByLabel("Vendor").fill("");
  await kev.getByLabel("Added since").fill("2025-02-20");
  await kev.getByLabel("Added until").fill("2025-02-20");
  await kev.getByTestId("run-kev").click();
  await expect(kev.getByTestId("kev-row").filter({ hasText: "CVE-2025-23209" })).toHaveCount(1);
  // The previous answer (vendor "craft") also holds CVE-2025-23209: wait until every row is from the new one.
  await expect
    .poll(async () => [...new Set(await kev.getByTestId("kev-row").locator("td:nth-child(4)").allTextContents())])
    .toEqual(["2025-02-20"]);
  await expectUsed(page, 4);
  await snap(page, testInfo, "vulnerabilities-kev-search");
  // Dates the wrong way round are refused by the form's labels (not "added_until … added_since"), at no cost.
  await kev.getByLabel("Added since").fill("2025-03-01");
  await kev.getByLabel("Added until").fill("2025-02-01");
  await kev.getByTestId("run-kev").click();
  await expect(kev.getByTestId("error-note")).toHaveText("Added until must not be before added since.");
  await expectUsed(page, 4);

  // The CVE tab kept its answer while the catalog tab was open.
  await page.getByRole("tab", { name: "CVE lookup" }).click();
  await expect(cve.getByTestId("error-note")).toHaveAttribute("data-code", "CVE_NOT_FOUND");
});

test("a malicious release is shown first as malware, apart from the advisories, and a clean release says so, at 390 px too", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await newWorkspace(page, "Malware", []);
  await page.goto("/dashboard/vulnerabilities");

  await checkPackage(page, "npm", "tinted-logs", "1.4.2");
  const report = page.getByTestId("package-report");
  const malware = report.getByTestId("package-malware");
  await expect(malware).toContainText("tinted-logs 1.4.2 is reported as malicious");
  await expect(malware).toContainText("MAL-2026-0101");
  await expect(malware).toHaveAttribute("role", "alert");
  // Only the ordinary advisory is listed; the malware report and the withdrawn records are not advisories.
  await expect(report.getByTestId("advisory")).toHaveCount(1);
  await expect(report.getByTestId("verdict")).toHaveText("not affected");
  await expectActionsInView(page.locator("main"), "package report with malware");
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "vulnerabilities-malware-390");

  await checkPackage(page, "npm", "tinted-logs", "1.4.3");
  await expect(report.getByTestId("selected-version")).toHaveText("1.4.3");
  await expect(malware).toContainText("Malware reported in other versions of tinted-logs");
  await expect(malware).toContainText("Version 1.4.3 is not among the versions reported as malicious");
  await expect(malware).not.toHaveAttribute("role", "alert");
});

test("a package report names the supply-chain findings of the selected version and its verdict", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Findings", []);
  await page.goto("/dashboard/vulnerabilities");

  await checkPackage(page, "npm", "fresh-thing", "2.0.0");
  const findings = page.getByTestId("package-report").getByTestId("package-findings");
  await expect(findings).toContainText("Runs code on install");
  await expect(findings).toContainText("postinstall: node collect.js");
  await expect(findings).toContainText("Fresh release");
  await expect(findings).toContainText("Published by mallory");
  await expect(findings.getByTestId("package-verdict")).toContainText(/risk \(\d+\/100\)/);
  await snap(page, testInfo, "vulnerabilities-findings");

  await checkPackage(page, "npm", "fresh-thing", "1.1.0");
  await expect(findings.getByTestId("package-verdict")).toHaveText("Nothing found (0/100)");
  await expect(findings).toContainText("No supply-chain findings");

  await page.setViewportSize({ width: 390, height: 844 });
  await checkPackage(page, "npm", "expresss", "4.18.2");
  await expect(findings).toContainText("Look-alike name");
  await expect(findings).toContainText("A possible typosquat of express");
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "vulnerabilities-typosquat-390");
});
