// Saved reports as a person uses them: load an assessment by its request id, see a readable preview, save, view
// (the page never crashes on the stored event shape), rename and delete; at 390 px every action stays in view.
// Also the workspace id, shown and copyable on the overview and plan pages.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap } from "./helpers";

/** Every button and link inside main has its right edge within the viewport (no sideways scrolling needed). */
async function actionsInView(page: Page) {
  const width = page.viewportSize()!.width;
  const outside = await page
    .locator("main button:visible, main a:visible")
    .evaluateAll(
      (els, w) => els.filter((e) => e.getBoundingClientRect().right > w + 1).map((e) => e.textContent),
      width,
    );
  expect(outside).toEqual([]);
}

/** A button drawn as one: a visible border, not text alone (a borderless "Delete" reads as a caption). */
async function expectDrawnAsButton(button: Locator, what: string) {
  const border = await button.evaluate((el) => getComputedStyle(el).borderTopColor);
  expect(border, `${what}'s border`).not.toBe("rgba(0, 0, 0, 0)");
}

test("an assessment saved as a report opens, is renamed and deleted, at 1280 and 390 px", async ({
  page,
}, testInfo) => {
  const key = await newWorkspace(page, "Reports journey", ["suite_starter"]);
  const assessed = await page.request.post("/v1/assess", {
    headers: { authorization: `Bearer ${key}` },
    data: { event: "signup", ip: "8.8.8.8", email: "person@example.com", user_agent: "Mozilla/5.0" },
  });
  expect(assessed.status()).toBe(200);
  const assessment = (await assessed.json()) as { request_id: string };
  const requestId = assessment.request_id;

  // The workspace id, copyable, on the overview and the plan page.
  await page.goto("/dashboard");
  await expect(page.locator("main").getByTestId("workspace-id")).toContainText(/ws_/);
  await page.goto("/dashboard/plan");
  await expect(page.locator("main").getByTestId("workspace-id").getByRole("button", { name: "Copy id" })).toBeVisible();

  await page.goto("/dashboard/reports");
  // An id that finds no assessment says what that means and what to do, not an internal phrase.
  await page.getByLabel("Request id (optional)").fill("req_not_in_this_workspace");
  await page.getByRole("button", { name: "Load assessment" }).click();
  const notFound = page.getByTestId("report-not-found");
  await expect(notFound).toContainText(
    "No assessment with the request id req_not_in_this_workspace was found in this workspace.",
  );
  await expect(notFound).toContainText("You can also paste the report as JSON below.");
  await expect(notFound.getByRole("link", { name: "Events" })).toHaveAttribute("href", "/dashboard/events");
  await expect(page.getByText("investigation event")).toHaveCount(0);
  // The events search behind it also matches addresses: the assessment's IP address is not its request id.
  await page.getByLabel("Request id (optional)").fill("8.8.8.8");
  await page.getByRole("button", { name: "Load assessment" }).click();
  await expect(notFound).toContainText("No assessment with the request id 8.8.8.8 was found in this workspace.");
  await expect(page.getByTestId("report-preview")).toHaveCount(0);
  await page.getByLabel("Title").fill("Suspicious signup");
  await page.getByLabel("Request id (optional)").fill(requestId);
  await expectDrawnAsButton(page.getByRole("button", { name: "Load assessment" }), "Load assessment");
  await page.getByRole("button", { name: "Load assessment" }).click();
  await expect(page.getByTestId("report-preview")).toBeVisible();
  await expect(notFound).toHaveCount(0);
  await expect(page.getByTestId("report-preview").getByTestId("report-verdict")).toContainText("score");
  // By keyboard: the button goes disabled as the saved form empties, so the focus goes to a line saying it was saved
  // (it fell to the page's top), in words, not the report's id.
  await page.getByRole("button", { name: "Save report (1 unit)" }).focus();
  await page.keyboard.press("Enter");
  const row = page.getByTestId("report-row").filter({ hasText: "Suspicious signup" });
  await expect(row).toBeVisible();
  await expect(page.getByTestId("report-saved-line")).toHaveText("Saved “Suspicious signup”: it is listed below.");
  await expect(page.getByTestId("report-saved-line")).toBeFocused();
  // A second report, the assessment's answer pasted as JSON: the table marks it "· assessment".
  await page.getByLabel("Title").fill("Pasted answer");
  await page.getByText("Paste a report as JSON instead").click();
  await page.getByLabel("Report (JSON object)").fill(JSON.stringify(assessment));
  await page.getByRole("button", { name: "Save report (1 unit)" }).click();
  const pasted = page.getByTestId("report-row").filter({ hasText: "Pasted answer" });
  await expect(pasted).toContainText("· assessment");
  await row.getByRole("button", { name: "View" }).click();
  await expect(page.getByTestId("open-report")).toContainText("Suspicious signup");
  await expect(page.getByTestId("open-report").getByTestId("report-verdict")).toBeVisible();
  await expect(page.getByText("This page couldn't load")).toHaveCount(0);
  await snap(page, testInfo, "reports-1280");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(row).toBeVisible();
  await actionsInView(page);
  // The card's Title row: the label alone in its column (7rem), the title and "· assessment" together beside it.
  const titleCell = pasted.locator('td[data-label="Title"]');
  const marker = (await titleCell.getByText("· assessment", { exact: true }).boundingBox())!;
  expect(marker.x, "· assessment sits in the value column").toBeGreaterThanOrEqual(
    (await titleCell.boundingBox())!.x + 112,
  );
  // Every action is drawn as a button, and Delete in the destructive colour.
  const rename = row.getByRole("button", { name: "Rename" });
  const remove = row.getByRole("button", { name: "Delete" });
  await expectDrawnAsButton(row.getByRole("button", { name: "View" }), "View");
  await expectDrawnAsButton(rename, "Rename");
  await expectDrawnAsButton(remove, "Delete");
  expect(await remove.evaluate((el) => getComputedStyle(el).color)).not.toBe(
    await rename.evaluate((el) => getComputedStyle(el).color),
  );
  await row.getByRole("button", { name: "Rename" }).click();
  await row.getByLabel("New title for Suspicious signup").fill("Checkout fraud");
  await actionsInView(page);
  await row.getByRole("button", { name: "Save title" }).press("Enter");
  const renamed = page.getByTestId("report-row").filter({ hasText: "Checkout fraud" });
  await expect(renamed).toBeVisible();
  // The form went with the button pressed in it: the focus is back on Rename (it fell to the page's top).
  await expect(renamed.getByRole("button", { name: "Rename" })).toBeFocused();
  await snap(page, testInfo, "reports-390");
  await renamed.getByRole("button", { name: "Delete" }).click();
  await actionsInView(page);
  await renamed.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByTestId("report-row").filter({ hasText: "Checkout fraud" })).toHaveCount(0);
  // The row went with the button pressed in it: the line that says so has the focus.
  await expect(page.getByTestId("done-notice")).toHaveText("Deleted “Checkout fraud”.");
  await expect(page.getByTestId("done-notice")).toBeFocused();

  // Keys at 390 px: Revoke and its confirmation in view, and this month's usage per key.
  await page.goto("/dashboard/keys");
  await expect(page.getByTestId("usage-by-key")).toContainText("Dashboard");
  await page.getByTestId("key-row").first().getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByRole("button", { name: "Yes, revoke" })).toBeVisible();
  await actionsInView(page);
  await snap(page, testInfo, "keys-390");
  await page.setViewportSize({ width: 1280, height: 900 });
  await snap(page, testInfo, "keys-1280");
  await page.goto("/dashboard");
  await snap(page, testInfo, "overview-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, "overview-390");
  await page.goto("/dashboard/plan");
  await snap(page, testInfo, "plan-390");
});
