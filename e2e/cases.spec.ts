import { expect, test, type Page } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";
import { expectNoSidewaysScroll } from "./narrow";

/** A scripted client's login from a private address, assessed on the dashboard's form: medium risk, decided review. */
async function reviewedLogin(page: Page, userId: string): Promise<void> {
  await page.goto("/dashboard/assess");
  await page.getByLabel("Event").selectOption("login");
  await page.getByLabel("IP address (required)").fill("10.0.0.8");
  await page.getByLabel("User-Agent").fill("python-requests/2.31");
  await page.getByLabel("User id").fill(userId);
  await page.getByTestId("run-assessment").click();
  await expect(page.getByTestId("assessment-answer").getByTestId("decision")).toHaveText("review");
}

test("an analyst works the review queue: a review decision opens a case, the F key resolves it as fraud, and the overview counts what is left", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Cases", ["suite_starter"]);
  await page.goto("/dashboard/cases");
  await expect(page.getByRole("heading", { name: "Review queue", level: 1 })).toBeVisible();
  await expect(page.getByTestId("cases-empty")).toContainText("Nothing to review");

  await reviewedLogin(page, "mallory");

  await page.goto("/dashboard");
  await expect(page.getByTestId("overview-cases")).toContainText("1 open case, the oldest waiting");

  await page.goto("/dashboard/cases");
  await expect(page.getByTestId("cases-summary")).toContainText("1 open case;");
  const card = page.getByTestId("case-card");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("mallory");
  await card.getByTestId("case-open").click();
  const detail = card.getByTestId("case-detail");
  await expect(detail.getByTestId("case-signals")).toContainText("Automation tool user agent ua_automation +35");
  await expect(detail.getByTestId("case-history")).toContainText("login from 10.0.0.8");
  // A list can take only the values this case has: its account and its address (no email or device was sent).
  await expect(detail.getByLabel("Also add its").locator("option")).toHaveText([
    "user id (mallory)",
    "IP address (10.0.0.8)",
  ]);
  await snap(page, testInfo, "cases-open");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  // Each of the account's facts keeps its value on one line (a "no" was once broken into "n" and "o").
  const brokenValues = await detail.getByTestId("case-account-facts").evaluate((el) =>
    [...el.querySelectorAll("dd")]
      .filter((dd) => {
        const range = document.createRange();
        range.selectNodeContents(dd);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
      })
      .map((dd) => dd.textContent),
  );
  expect(brokenValues).toEqual([]);
  await snap(page, testInfo, "cases-open-390");

  // The verdict by keyboard: F is fraud.
  await page.getByTestId("case-fraud").focus();
  await page.keyboard.press("f");
  await expect(page.getByTestId("cases-empty")).toBeVisible();
  await expect(page.getByTestId("cases-summary")).toHaveText("No open cases.");
  await page.getByTestId("cases-resolved").check();
  await expect(page.getByTestId("case-card")).toContainText("fraud");

  await page.goto("/dashboard");
  await expect(page.getByTestId("overview-cases")).toContainText("No open cases.");

  // Another account from the same address: its case names the earlier one, its verdict and what they share.
  await reviewedLogin(page, "trudy");
  await page.goto("/dashboard/cases");
  await page.getByTestId("case-open").click();
  await expect(page.getByTestId("case-related")).toHaveText(
    /^mallory · review, score \d+, resolved \(fraud\) · opened .+ ago · same IP address$/,
  );
});
