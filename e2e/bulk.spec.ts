// A bulk job from the dashboard: paste 20 targets, see the cost, start, watch the bar reach 100 %, filter the
// results, download the CSV and parse it; the units match. A workspace without bulk sees which plans have it.
import { expectActionsInView, expectNoSidewaysScroll } from "./narrow";
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { newWorkspace } from "./dashboard-steps";
import { parseCsv, snap } from "./helpers";

test("paste 20 targets, see the cost, run the job to 100 %, filter, download the CSV", async ({ page }, testInfo) => {
  await newWorkspace(page, "Bulk", ["suite_business"]);
  await page.goto("/dashboard/bulk");
  await expect(page.getByRole("heading", { name: "Bulk jobs", level: 1 })).toBeVisible();
  await expect(page.getByTestId("bulk-jobs-empty")).toBeVisible();

  // 18 addresses, one CIDR of 4 addresses and one unreadable line first.
  const ips = Array.from({ length: 18 }, (_, i) => `198.51.100.${i + 1}`);
  await page.getByTestId("bulk-targets").fill([...ips, "203.0.113.0/30", "not a target!"].join("\n"));
  await expect(page.getByTestId("bulk-cost")).toContainText("Line 20");
  await expect(page.getByTestId("bulk-start")).toBeDisabled();
  await snap(page, testInfo, "bulk-problem");

  await page.getByTestId("bulk-targets").fill([...ips, "203.0.113.0/30", "8.8.8.8"].join("\n"));
  await expect(page.getByTestId("bulk-cost")).toContainText("20 targets · 23 units");
  await expect(page.getByTestId("bulk-start")).toHaveText("Start job (23 units)");
  await page.getByTestId("bulk-start").click();

  const job = page.getByTestId("bulk-job");
  await expect(job.getByTestId("bulk-progress")).toHaveAttribute("aria-valuenow", "100", { timeout: 30_000 });
  await expect(job.getByTestId("bulk-progress-text")).toContainText("Completed");
  await expect(job.getByTestId("bulk-item")).toHaveCount(20);
  // Each summary in words, as the lookup's answer says it: "AS number: 15169", not the CSV's column "asn".
  const google = job.getByTestId("bulk-item").filter({ hasText: "8.8.8.8" });
  await expect(google).toContainText("AS number: 15169");
  await expect(google).not.toContainText("asn:");
  await expect(job).toContainText("23 charged");
  await snap(page, testInfo, "bulk-done");

  await job.getByTestId("bulk-filter-kind").selectOption("cidr");
  await expect(job.getByTestId("bulk-item")).toHaveCount(1);
  await expect(job.getByTestId("bulk-item")).toContainText("203.0.113.0/30");
  await job.getByTestId("bulk-filter-kind").selectOption("");
  await job.getByTestId("bulk-filter-status").selectOption("failed");
  await expect(job).toContainText("No target matches this filter.");
  await job.getByTestId("bulk-filter-status").selectOption("");

  const [download] = await Promise.all([page.waitForEvent("download"), job.getByTestId("bulk-csv").click()]);
  const rows = parseCsv(readFileSync((await download.path())!, "utf8"));
  expect(rows[0]!.slice(0, 6)).toEqual(["position", "target", "kind", "status", "units", "refunded"]);
  expect(rows.slice(1).map((r) => r[3])).toEqual(Array(20).fill("succeeded"));
  expect(rows.slice(1).reduce((n, r) => n + Number(r[4]), 0)).toBe(23);
  const [json] = await Promise.all([page.waitForEvent("download"), job.getByTestId("bulk-json").click()]);
  const parsed = JSON.parse(readFileSync((await json.path())!, "utf8"));
  expect(parsed.items[0].result.ip).toBe("198.51.100.1");

  // The job is listed, and the units left count its units without a reload (issue 22, item 5).
  await expect(page.getByTestId("bulk-job-list")).toContainText("20 done");
  // Closed by keyboard, the panel hands the focus to the job's Open button in the list (it went to the page's top),
  // and Open gives it to the job's heading.
  await job.getByRole("button", { name: "Close" }).focus();
  await page.keyboard.press("Enter");
  await expect(job).toHaveCount(0);
  const openButton = page.getByTestId("bulk-job-list").getByRole("button", { name: "Open" });
  await expect(openButton).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(job.getByRole("heading", { level: 2 })).toBeFocused();
  await page.getByTestId("bulk-targets").fill("8.8.4.4");
  await expect(page.getByTestId("bulk-cost")).toContainText("24,977 left this month");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await expectActionsInView(page.getByTestId("bulk-job-list"), "the bulk job list");
  await snap(page, testInfo, "bulk-390");

  // A result saved as a report is titled by its lookup's name, as the console titles one ("ip 8.8.8.8" before).
  // By keyboard: the saved note's link takes the focus from the button it replaces (it went to the page's top).
  await google.getByRole("button", { name: "Save report (1 unit)" }).press("Enter");
  await expect(google.getByRole("link", { name: "Open the report" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("open-report")).toContainText("IP reputation: 8.8.8.8");
});

test("a workspace without bulk sees which plans have it", async ({ page }, testInfo) => {
  await newWorkspace(page, "Bulk free", []);
  await page.goto("/dashboard/bulk");
  await expect(page.getByTestId("plan-gate")).toContainText("Suite Business, Suite Agency or Lookups Growth");
  await snap(page, testInfo, "bulk-plan-gate");
});

test("cancelling a running job by keyboard leaves the focus on its progress", async ({ page }, testInfo) => {
  // A site that never answers: the job's online checks wait, so the job is still running when it is cancelled.
  const site = http.createServer(() => {});
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  const port = (site.address() as AddressInfo).port;
  try {
    await newWorkspace(page, "Bulk cancel", ["suite_business"]);
    await page.goto("/dashboard/bulk");
    await page.getByTestId("bulk-kind").selectOption("online");
    const urls = Array.from({ length: 12 }, (_, i) => `http://127.0.0.1:${port}/page-${i}`);
    await page.getByTestId("bulk-targets").fill(urls.join("\n"));
    await expect(page.getByTestId("bulk-start")).toBeEnabled();
    await page.getByTestId("bulk-start").click();
    const job = page.getByTestId("bulk-job");
    // Arrived from the form, the job's heading has the focus once; the polls of the running job leave it where the
    // user then puts it (typing the next job's targets), never back on the heading.
    await expect(job.getByRole("heading", { level: 2 })).toBeFocused();
    await expect(job.getByRole("button", { name: "Cancel job" })).toBeVisible();
    const targets = page.getByTestId("bulk-targets");
    await targets.fill("");
    await targets.focus();
    const polls = { n: 0 };
    page.on("request", (r) => void (r.url().includes("jobs.get") && polls.n++));
    await targets.pressSequentially("https://example.com/", { delay: 150 });
    await expect.poll(() => polls.n, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    await expect(targets).toBeFocused();
    await expect(targets).toHaveValue("https://example.com/");
    await job.getByRole("button", { name: "Cancel job" }).press("Enter");
    await expect(job.getByRole("button", { name: "Keep it running" })).toBeFocused();
    await job.getByRole("button", { name: "Yes, cancel the job" }).press("Enter");
    // The question is gone: the focus is on the progress line (it went to the page's top), which says so.
    await expect(job.getByTestId("bulk-progress-text")).toBeFocused();
    await expect(job.getByTestId("bulk-progress-text")).toContainText("cancelled");
    // The jobs list counts every item: the ones still running when the job was cancelled are "remaining" there too
    // (it once said "0 done, 8 cancelled of 12" while the job said "4 remaining").
    const row = page.getByTestId("bulk-job-list").getByRole("cell").filter({ hasText: "cancelled" });
    await expect(row).toBeVisible();
    const said = (await row.textContent()) ?? "";
    const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(said)?.[1] ?? 0);
    const total = Number(/of (\d+)/.exec(said)?.[1]);
    expect(total).toBe(12);
    expect(count("done") + count("failed") + count("remaining") + count("cancelled"), said).toBe(total);
    await snap(page, testInfo, "bulk-cancelled");
  } finally {
    site.closeAllConnections();
    site.close();
  }
});
