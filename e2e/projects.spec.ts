// Projects (issue 46, item 7): an empty page first; two scans of acme/web sent by CI through the REST API (the second
// adds a malicious version and fixes an advisory); the project's refs, its new and fixed findings over time, the
// watch toggle with its cost said first (creating and deleting the project monitor), and a stored answer with its
// diff and the CSV and SARIF downloads; at 390 px nothing scrolls sideways and no action hides; axe finds nothing
// serious.
import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { FIRST, SECOND } from "../test/projects/lockfiles";
import { seriousViolations } from "./axe";
import { newWorkspace } from "./dashboard-steps";
import { createKey, parseCsv, snap } from "./helpers";
import { expectActionsInView, expectNoSidewaysScroll } from "./narrow";

async function downloaded(page: Page, button: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
  return readFileSync((await file.path())!, "utf8");
}

test("a project's history, findings over time, watch toggle and stored answer with downloads", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await newWorkspace(page, "Projects", ["suite_agency"]);
  await page.goto("/dashboard/projects");
  await expect(page.getByTestId("projects-empty")).toBeVisible();
  // The empty state leads to the dashboard's own lockfile scan, not only to the API's query parameter.
  await expect(page.getByTestId("projects-empty").getByRole("link", { name: "Vulnerabilities" })).toHaveAttribute(
    "href",
    "/dashboard/vulnerabilities",
  );
  // The main branch belongs on the default ref, which a watch re-checks (filed as ref=main, it could not be watched).
  await expect(page.getByTestId("projects-intro")).toContainText(
    "scan your main branch that way, since a watch re-checks the default ref's latest scan",
  );
  await expect(page.getByTestId("projects-intro")).not.toContainText("ref=main");
  await snap(page, testInfo, "projects-empty");

  const key = await createKey(page, "ci");
  const scan = async (body: string, query: string) => {
    const res = await page.request.post(`/v1/vulnerabilities/scan${query}`, {
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "text/plain" },
      data: body,
    });
    expect(res.status()).toBe(200);
    return res.json();
  };
  await scan(FIRST, "?project=acme/web");
  const pr = await scan(SECOND, "?project=acme/web&ref=pr-7");
  expect(pr.diff.new.map((f: { id: string }) => f.id)).toEqual(["MAL-2026-0101"]);

  await page.goto("/dashboard/projects");
  const row = page.locator('[data-testid=project][data-name="acme/web"]');
  await expect(row).toContainText("2 scans");
  await row.getByRole("button", { name: "Open" }).click();
  const detail = page.getByTestId("project-detail");
  await expect(detail.getByRole("heading", { name: "acme/web" })).toBeVisible();
  await expect(detail.getByTestId("project-ref")).toHaveCount(2);
  await expect(detail.getByTestId("project-ref").first()).toContainText("default");
  await expect(detail.getByTestId("chart-project-findings")).toBeVisible();
  // The pull request's new and fixed findings are not the project's: the chart counts the default ref's scans only
  // (its first scan's five findings, all new without a base), not pr-7's malware report and fixed advisory too.
  await expect(detail.getByTestId("chart-project-findings")).toContainText(/the busiest day was .+ with 5\./);
  // Watching starts from what the project has: said before the button.
  await expect(detail.getByTestId("watch")).toContainText("is the baseline and is not alerted");
  await expect(detail.getByTestId("open-findings")).toContainText("@acme/widget@1.0.0");

  // Watching: the cost first (3 package versions a run), then the monitor is created and deleted from here.
  await expect(detail.getByTestId("watch-cost")).toHaveText("Costs 3 units a run, about 90 a month.");
  await detail.getByRole("button", { name: "Watch this project" }).click();
  await expect(detail.getByRole("button", { name: "Stop watching" })).toBeVisible();
  await expect(detail.getByRole("link", { name: "Its monitor" })).toBeVisible();
  await expect(detail.getByTestId("watched")).toContainText("Watched every day:");
  await snap(page, testInfo, "project-watched");
  // Its monitor says a run costs the project's 3 package versions, and so does its form's estimate when edited.
  await detail.getByRole("link", { name: "Its monitor" }).click();
  await expect(page.locator("#run-cost")).toContainText(
    "Running now costs 3 units (one per package version of the project's latest default-ref scan)",
  );
  await page.getByRole("button", { name: "Edit" }).click();
  await expect(page.getByTestId("monitor-estimate")).toContainText(
    "about 90 units a month (3 package versions × 30 runs a month)",
  );
  // A project name that is no project name cannot be estimated: the form says why, in the words of its label (it
  // once said "Working out the monthly units…" for ever).
  await page.getByLabel(/^Project/).fill("not a project name!");
  await expect(page.getByTestId("monitor-estimate-error")).toContainText(/^Project must be /);
  await expect(page.getByText("Working out the monthly units…")).toHaveCount(0);
  await page.goBack();
  await page.goto("/dashboard/projects");
  await page.locator('[data-testid=project][data-name="acme/web"]').getByRole("button", { name: "Open" }).click();
  await expect(detail.getByRole("button", { name: "Stop watching" })).toBeVisible();
  await detail.getByRole("button", { name: "Stop watching" }).click();
  await expect(detail.getByRole("button", { name: "Watch this project" })).toBeVisible();

  // The pull request's stored answer: the malicious version new, the advisory fixed, then its downloads.
  const newest = detail.getByTestId("project-scan").first();
  await expect(newest).toContainText("pr-7");
  await newest.getByRole("button", { name: "Show answer" }).click();
  const stored = detail.getByTestId("stored-scan");
  await expect(stored.getByTestId("diff-new")).toContainText("tinted-logs@1.4.2");
  await expect(stored.getByTestId("diff-new")).toContainText("MAL-2026-0101");
  await expect(stored.getByTestId("diff-fixed")).toContainText("GHSA-35jh-r3h4-6jhm");
  await expect(stored.getByTestId("diff-fixed")).toContainText("fixed in 1.0.1");
  const csv = parseCsv(await downloaded(page, "Download CSV"));
  expect(csv[0]!.slice(0, 3)).toEqual(["ecosystem", "name", "version"]);
  expect(csv.some((r) => r[1] === "tinted-logs" && r[5] === "malware")).toBe(true);
  const sarif = JSON.parse(await downloaded(page, "Download SARIF"));
  expect(sarif.version).toBe("2.1.0");
  expect(await seriousViolations(page)).toEqual([]);
  await snap(page, testInfo, "project-answer-1280");

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await expectActionsInView(detail, "the project");
  await snap(page, testInfo, "project-answer-390");

  // Deleting the project empties the page again. It asks in the page, as every other delete does (it once asked in
  // the browser's own dialog): the question takes focus on Cancel, and Escape gives the focus back to Delete project.
  const del = detail.getByRole("button", { name: "Delete project" });
  await del.press("Enter");
  const question = page.getByRole("alertdialog", { name: /^Delete / });
  await expect(question).toContainText("stored scan");
  await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(question).toHaveCount(0);
  await expect(del).toBeFocused();
  await del.press("Enter");
  await question.getByRole("button", { name: "Yes, delete" }).press("Enter");
  await expect(page.getByTestId("projects-empty")).toBeVisible();
  // Its page and the button pressed are gone: a notice says what went and has the focus.
  await expect(page.getByTestId("done-notice")).toHaveText(/^Deleted “.+”\.$/);
  await expect(page.getByTestId("done-notice")).toBeFocused();
});

test("a project name in the page's address that is no project name is said in words, without the API's field", async ({
  page,
}) => {
  await newWorkspace(page, "Project names", ["suite_agency"]);
  await page.goto("/dashboard/projects?project=a%20b");
  const note = page.getByTestId("error-note");
  await expect(note).toContainText('"a b" is no project name: a project name is');
  await expect(note).not.toContainText("name: must be");
});
