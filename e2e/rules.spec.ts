// Rules from the dashboard (issues 8 and 12): a labelled assessment first, then a rule built from conditions with
// each field's meaning shown, switched to an expression whose mistake is shown at its line and column, fixed,
// backtested on that assessment (match, precision), saved as a shadow rule (enforce or shadow is an explicit choice:
// saving without one is refused in the form); a second rule, enforced; the list says which rules decide;
// enable/disable, shadow switch, reorder; a new assessment the rule decides, labelled with an outcome button, and the rule's precision on
// the list; delete with an in-page confirmation. A workspace without rules is told which plans have them. A member
// (not owner) manages rules as the owner does (every rules procedure is open to members on a plan with rules): sees
// the owner's rule, backtests and saves one of their own, switches the owner's off, and is never told "owners only".
import { expect, test, type Page } from "@playwright/test";
import { asOperator, newWorkspace } from "./dashboard-steps";
import { failInBatch, signIn, snap, uniqueEmail, unavailable } from "./helpers";

async function assessExample(page: Page) {
  await page.goto("/dashboard/assess");
  await page.getByRole("button", { name: "Fill in an example" }).click();
  await page.getByTestId("run-assessment").click();
  await expect(page.getByTestId("assessment-answer")).toBeVisible({ timeout: 30_000 });
}

test("build, test, shadow, reorder and delete rules; label an assessment and see the rule's precision", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await newWorkspace(page, "Rules", ["suite_business"]);

  // A past assessment with an outcome label, for the backtest to read.
  await assessExample(page);
  await expect(page.getByTestId("outcome-saved")).toHaveText("Not labelled yet.");
  await page.getByTestId("outcome-fraud").click();
  await expect(page.getByTestId("outcome-saved")).toContainText("Labelled “Fraud”");
  await expect(page.getByTestId("outcome-fraud")).toHaveAttribute("aria-pressed", "true");

  await page.goto("/dashboard/rules");
  await expect(page.getByRole("heading", { name: "Rules", level: 1 })).toBeVisible();
  await expect(page.getByTestId("rules-empty")).toBeVisible();
  await snap(page, testInfo, "rules-empty");

  // Conditions, with the meaning of the chosen field from the fact table.
  await page.getByTestId("rule-new").click();
  await expect(page.getByTestId("rule-name")).toBeFocused();
  await page.getByTestId("rule-name").fill("German billing, big basket");
  const row = page.getByTestId("condition-row").first();
  await row.getByTestId("condition-field").selectOption("billing_country");
  await expect(row.getByTestId("field-meaning")).toContainText(
    "billing_country of the request (upper-case ISO 3166-1 alpha-2)",
  );
  await row.getByTestId("condition-field").selectOption("tor_exit");
  await expect(row.getByTestId("field-meaning")).toContainText("a listed Tor exit relay");
  await row.getByTestId("condition-field").selectOption("billing_country");
  await row.getByTestId("condition-value").fill("Germany");
  await page.getByTestId("backtest-run").click();
  // Said as the row says it: no "billing_country eq" of the API's codes beside "billing country" and "is".
  await expect(row.getByTestId("condition-error")).toHaveText(
    "The value must be a two-letter country code such as DE.",
  );
  // The refused row's value is marked, described by what is wrong with it, and has the focus.
  await expect(row.getByTestId("condition-value")).toHaveAttribute("aria-invalid", "true");
  await expect(row.getByTestId("condition-value")).toHaveAccessibleDescription(
    "The value must be a two-letter country code such as DE.",
  );
  await expect(row.getByTestId("condition-value")).toBeFocused();
  await row.getByTestId("condition-value").fill("de");
  // The refusal was about the old value: it goes once the draft changes.
  await expect(row.getByTestId("condition-error")).toHaveCount(0);
  await snap(page, testInfo, "rules-conditions");

  // The same rule as an expression, with a typo: the server's message at its line and column.
  await page.getByTestId("form-expression").check();
  await page.getByTestId("expression-input").fill('billing_country == "DE"\n&& amout > 100');
  await page.getByTestId("backtest-run").click();
  const exprError = page.getByTestId("expression-error");
  await expect(exprError).toContainText("Line 2, column 4:");
  await expect(exprError).toContainText('did you mean "amount"');
  await expect(exprError).not.toContainText("INVALID_REQUEST");
  await expect(page.getByTestId("expression-input")).toHaveAttribute("aria-invalid", "true");
  // Described by its help and by the verdict, and focused, so the keyboard lands where the fix goes.
  await expect(page.getByTestId("expression-input")).toHaveAccessibleDescription(
    /Common Expression Language.*Line 2, column 4:.*did you mean "amount"/,
  );
  await expect(page.getByTestId("expression-input")).toBeFocused();
  await snap(page, testInfo, "rules-expression-error");

  await page.getByTestId("expression-input").fill('billing_country == "DE"\n&& amount > 100');
  // By keyboard: the button keeps the focus while the test runs and after (it was disabled while running, which
  // threw the focus to the page's top).
  await page.getByTestId("backtest-run").focus();
  await page.keyboard.press("Enter");
  await expect(exprError).toHaveCount(0);
  const result = page.getByTestId("backtest-result");
  await expect(result).toBeVisible();
  await expect(page.getByTestId("backtest-run")).toBeFocused();
  await expect(result.getByTestId("backtest-assessments")).toHaveText("1");
  await expect(result.getByTestId("backtest-matched")).toHaveText("1");
  await expect(result.getByTestId("backtest-precision")).toHaveText("100 %");
  await expect(result.getByTestId("backtest-recall")).toHaveText("100 %");
  await expect(result.getByTestId("backtest-samples").locator("li")).toHaveCount(1);
  await snap(page, testInfo, "rules-backtest");

  // Enforce or shadow is the user's choice: neither is picked for a new rule, and saving without one says so.
  await expect(page.getByTestId("rule-mode-active")).not.toBeChecked();
  await expect(page.getByTestId("rule-mode-shadow")).not.toBeChecked();
  await page.getByTestId("rule-save").click();
  await expect(page.getByTestId("rule-mode-error")).toHaveText(
    "Choose whether this rule decides (enforce) or only records what it would do (shadow).",
  );
  await expect(page.getByTestId("rule-mode-active")).toBeFocused();
  await expect(page.getByTestId("rules-empty")).toBeVisible();
  await snap(page, testInfo, "rules-mode-missing");
  await page.getByTestId("rule-mode-shadow").check();
  await expect(page.getByTestId("rule-mode-error")).toHaveCount(0);
  // A blank name is refused by its label, not by the API's field name ("name: must not be empty").
  const name = await page.getByTestId("rule-name").inputValue();
  await page.getByTestId("rule-name").fill("   ");
  await page.getByTestId("rule-save").focus();
  await page.keyboard.press("Enter");
  // Said beside the Name field, which is marked and takes the keyboard (the refusal is about it).
  await expect(page.getByTestId("rule-name-error")).toHaveText("Name must not be empty.");
  await expect(page.getByTestId("rule-name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("rule-name")).toBeFocused();
  await page.getByTestId("rule-name").fill(name);
  await expect(page.getByTestId("rule-save")).toHaveText("Save as shadow rule");
  await page.getByTestId("rule-save").click();
  await expect(page.getByTestId("rules-notice")).toHaveText("Rule created.");
  const rows = page.getByTestId("rule-row");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-mode", "shadow");
  await expect(rows.first().getByTestId("rule-mode")).toHaveText("shadow: only records");
  await expect(rows.first()).toContainText('billing_country == "DE"');

  // A second rule, active, from conditions.
  await page.getByTestId("rule-new").click();
  await page.getByTestId("rule-name").fill("Tor exits");
  await page.getByTestId("condition-field").first().selectOption("tor_exit");
  await page.getByTestId("rule-mode-active").check();
  // An active allow rule that does not bound the score would let through what the score blocks: said before saving.
  await page.getByTestId("rule-action").selectOption("allow");
  await expect(page.getByTestId("rule-override-warning")).toContainText("score is below 80");
  await page.getByTestId("rule-action").selectOption("block");
  await expect(page.getByTestId("rule-override-warning")).toHaveCount(0);
  await expect(page.getByTestId("rule-save")).toHaveText("Save and enforce");
  await page.getByTestId("rule-save").click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText("Tor exits");
  await expect(rows.nth(1)).toHaveAttribute("data-mode", "active");
  // The list says which rules decide and which only record.
  await expect(rows.nth(1).getByTestId("rule-mode")).toHaveText("enforced: decides");
  await expect(page.getByTestId("rules-modes")).toHaveText(
    "1 rule decides (enforced); 1 rule only records what it would do (shadow).",
  );
  await expect(rows.nth(1)).toContainText("ip.tor_exit is yes");

  // Disable and enable again.
  const tor = rows.filter({ hasText: "Tor exits" });
  await tor.getByTestId("row-enabled").click();
  await expect(tor).toHaveAttribute("data-enabled", "false");
  await expect(tor.getByTestId("rule-disabled")).toBeVisible();
  await tor.getByTestId("row-enabled").click();
  await expect(tor).toHaveAttribute("data-enabled", "true");

  // Reorder: Tor exits first, by keyboard.
  await page.getByRole("button", { name: "Move “Tor exits” up" }).focus();
  await page.keyboard.press("Enter");
  await expect(rows.first()).toContainText("Tor exits");
  await expect(rows.nth(1)).toContainText("German billing");
  // Focus follows the moved rule: at the top its Up button is off, so focus is on its Down button; Enter moves it back.
  await expect(page.getByRole("button", { name: "Move “Tor exits” down" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(rows.first()).toContainText("German billing");
  await expect(page.getByRole("button", { name: "Move “Tor exits” up" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(rows.first()).toContainText("Tor exits");
  // The moves are written one after another; once written, the order is the server's.
  await expect(page.getByTestId("rules-section")).toHaveAttribute("aria-busy", "false");
  await page.reload();
  await expect(rows.first()).toContainText("Tor exits");

  // The shadow switch on the list: the German rule goes live.
  const german = rows.filter({ hasText: "German billing" });
  await german.getByTestId("row-shadow").click();
  await expect(german).toHaveAttribute("data-mode", "active");

  // Edit: the editor opens with the rule's expression.
  await german.getByRole("button", { name: /Edit or test/ }).click();
  await expect(page.getByTestId("expression-input")).toHaveValue('billing_country == "DE"\n&& amount > 100');
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("rule-editor")).toHaveCount(0);
  // Focus goes back to the button that opened the editor: this rule's, not New rule at the top of the page.
  await expect(german.getByRole("button", { name: /Edit or test/ })).toBeFocused();
  // The same after saving the edit, by keyboard.
  await german.getByRole("button", { name: /Edit or test/ }).press("Enter");
  await expect(page.getByTestId("rule-name")).toBeFocused();
  await page.getByTestId("rule-save").press("Enter");
  await expect(page.getByTestId("rules-notice")).toHaveText("Rule saved.");
  await expect(german.getByRole("button", { name: /Edit or test/ })).toBeFocused();

  // A new assessment is decided by the rule; label it from the answer.
  await assessExample(page);
  await expect(page.getByTestId("matched-rules")).toContainText("German billing, big basket");
  await expect(page.getByTestId("outcome-saved")).toHaveText("Not labelled yet.");
  await page.getByTestId("outcome-chargeback").click();
  await expect(page.getByTestId("outcome-saved")).toContainText("Labelled “Chargeback”");
  await snap(page, testInfo, "assess-outcome");

  // The rule's precision from that label.
  await page.goto("/dashboard/rules");
  await expect(german.getByTestId("rule-stats")).toContainText("Matched 1");
  await expect(german.getByTestId("rule-precision")).toHaveText("100 %");
  await snap(page, testInfo, "rules-list");

  // Delete with an in-page confirmation; Cancel first.
  await page.getByRole("button", { name: "Delete “Tor exits”" }).click();
  const confirm = page.getByTestId("rule-confirm");
  await expect(confirm).toContainText("Delete “Tor exits”?");
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(rows).toHaveCount(2);
  await page.getByRole("button", { name: "Delete “Tor exits”" }).click();
  await confirm.getByRole("button", { name: "Yes, delete" }).click();
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId("rules-notice")).toHaveText("Deleted “Tor exits”.");
  // The row and its button are gone: the focus is on the notice, not at the page's top.
  await expect(page.getByTestId("rules-notice")).toBeFocused();

  // At 390 px: the list and the editor with a backtest fit without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await german.getByRole("button", { name: /Edit or test/ }).click();
  await page.getByTestId("backtest-run").click();
  await expect(page.getByTestId("backtest-result")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
  await snap(page, testInfo, "rules-390");
});

test("a workspace without rules is told which plans have them", async ({ page }, testInfo) => {
  await newWorkspace(page, "RulesFree", []);
  await page.goto("/dashboard/rules");
  await expect(page.getByTestId("plan-gate")).toContainText(
    "Rules need the Suite Starter, Suite Business, Lookups Developer, Suite Agency or Lookups Growth plan",
  );
  await expect(page.getByTestId("error-note")).toHaveCount(0);
  await snap(page, testInfo, "rules-plan-gate");
});

test("a member (not owner) sees the owner's rules, backtests and saves a rule, and switches a rule off", async ({
  page,
  browser,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const key = await newWorkspace(page, "RulesTeam", ["suite_business"]);
  // The owner's rule, made through the API, and an assessment for the backtest to read.
  const created = await request.post("/v1/rules", {
    headers: { authorization: `Bearer ${key}` },
    data: { name: "Owner: French billing", action: "review", expression: 'billing_country == "FR"' },
  });
  expect(created.status()).toBe(200);
  await assessExample(page);

  const member = uniqueEmail("rules-member");
  await page.goto("/dashboard/members");
  await page.getByLabel("Email").fill(member);
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.locator(`[data-testid=member-row][data-email="${member}"]`)).toContainText("invited");

  const other = await browser.newContext();
  try {
    const mp = await other.newPage();
    await signIn(mp, member);
    await expect(mp.getByTestId("workspace-name")).toHaveText("RulesTeam");
    await expect(mp.getByTestId("my-role")).toHaveText("member");
    await mp.goto("/dashboard/rules");
    await expect(mp.getByRole("heading", { name: "Rules", level: 1 })).toBeVisible();
    const rows = mp.getByTestId("rule-row");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Owner: French billing");
    await expect(mp.getByTestId("plan-gate")).toHaveCount(0);

    // A rule of the member's own: an expression, backtested on the workspace's assessment, then saved.
    await mp.getByTestId("rule-new").click();
    await expect(mp.getByTestId("rule-name")).toBeFocused();
    await mp.getByTestId("rule-name").fill("Member: German billing");
    await mp.getByTestId("form-expression").check();
    await mp.getByTestId("expression-input").fill('billing_country == "DE"');
    await mp.getByTestId("rule-mode-shadow").check();
    await mp.getByTestId("backtest-run").click();
    const result = mp.getByTestId("backtest-result");
    await expect(result.getByTestId("backtest-assessments")).toHaveText("1");
    await expect(result.getByTestId("backtest-matched")).toHaveText("1");
    await snap(mp, testInfo, "rules-member-backtest");
    await mp.getByTestId("rule-save").click();
    await expect(mp.getByTestId("rules-notice")).toHaveText("Rule created.");
    await expect(rows).toHaveCount(2);

    // The owner's rule switched off by the member, by keyboard.
    const owners = rows.filter({ hasText: "Owner: French billing" });
    await owners.getByTestId("row-enabled").focus();
    await mp.keyboard.press("Space");
    await expect(owners).toHaveAttribute("data-enabled", "false");
    // Nothing on the page is held back from a member: no "owners only" note, no refusal.
    await expect(mp.getByText(/only (workspace )?owners/i)).toHaveCount(0);
    await expect(mp.getByTestId("error-note")).toHaveCount(0);
    await snap(mp, testInfo, "rules-member-1280");
    await mp.setViewportSize({ width: 390, height: 844 });
    expect(await mp.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await snap(mp, testInfo, "rules-member-390");
  } finally {
    await other.close();
  }

  // The owner sees the member's rule and the switch the member made.
  await page.goto("/dashboard/rules");
  const ownerRows = page.getByTestId("rule-row");
  await expect(ownerRows).toHaveCount(2);
  await expect(ownerRows.filter({ hasText: "Member: German billing" })).toHaveCount(1);
  await expect(ownerRows.filter({ hasText: "Owner: French billing" })).toHaveAttribute("data-enabled", "false");
});

test("a rule that names a list the workspace lacks says to create it on the Lists page, never an API route", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "RulesList", ["suite_starter"]);
  await page.goto("/dashboard/rules");
  await page.getByTestId("rule-new").click();
  await page.getByTestId("rule-name").fill("Blocked emails");
  await page.getByTestId("form-expression").check();
  await page.getByTestId("expression-input").fill('in_list("blocked_emails", email.address)');
  await page.getByTestId("rule-mode-active").check();
  await page.getByTestId("rule-save").click();
  const error = page.getByTestId("rule-error");
  await expect(error).toHaveText(
    'The expression names a list this workspace does not have: "blocked_emails". Create it first on the Lists page.',
  );
  await expect(page.getByTestId("rule-editor")).not.toContainText("/v1/");
  await snap(page, testInfo, "rules-missing-list");
});

test("the card-testing rule pack reads as prose, its field names as code, and enables in shadow", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Rule packs", ["suite_business"]);
  await page.goto("/dashboard/rules");
  const pack = page.getByTestId("rule-pack").filter({ hasText: "Card testing" });
  await expect(pack).toContainText("Send payment with checkout and payment events");
  await expect(pack.locator("p code")).toHaveText(["payment"]);
  await expect(pack).not.toContainText("`");
  // By keyboard: the pack's buttons are gone once it is enabled, and the focus is on its heading, which says so.
  await pack.getByRole("button", { name: "Enable in shadow" }).focus();
  await page.keyboard.press("Enter");
  await expect(pack).toContainText("enabled");
  await expect(pack.getByRole("heading", { level: 3 })).toBeFocused();
  await expect(page.getByTestId("rule-row")).toHaveCount(4);
  await snap(page, testInfo, "rules-pack-shadow");
});

test("a rule of a pack is backtested from the pack before the pack is enabled, and nothing is saved", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Pack backtest", ["suite_business"]);
  await page.goto("/dashboard/rules");
  const pack = page.getByTestId("rule-pack").filter({ hasText: "Card testing" });
  // The pack says its rules can be backtested first: each has a control that does it.
  await pack.getByRole("button", { name: "Test first “Card-testing burst from one device” before enabling" }).click();
  const editor = page.getByTestId("rule-editor");
  await expect(page.getByTestId("rule-name")).toHaveValue("Card-testing burst from one device");
  await expect(page.getByTestId("rule-name")).toBeFocused();
  await expect(page.getByTestId("rule-action")).toHaveValue("block");
  await expect(page.getByTestId("form-expression")).toBeChecked();
  await expect(page.getByTestId("expression-input")).toHaveValue("device.cards_1h >= 5 && device.declines_1h >= 3");
  // Enforce or shadow stays the user's choice.
  await expect(page.getByTestId("rule-mode-active")).not.toBeChecked();
  await expect(page.getByTestId("rule-mode-shadow")).not.toBeChecked();
  await page.getByTestId("backtest-run").click();
  await expect(page.getByTestId("backtest-result")).toBeVisible();
  await expect(editor.getByTestId("backtest-assessments")).toHaveText("0");
  await snap(page, testInfo, "rules-pack-backtest");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
  await snap(page, testInfo, "rules-pack-backtest-390");
  // Cancelled: nothing was saved, the pack is still off, and the focus is back on the button that opened the editor.
  await editor.getByRole("button", { name: "Cancel" }).click();
  await expect(editor).toHaveCount(0);
  await expect(page.getByTestId("rules-empty")).toBeVisible();
  await expect(pack.getByRole("heading", { level: 3 })).toContainText("off");
  await expect(
    pack.getByRole("button", { name: "Test first “Card-testing burst from one device” before enabling" }),
  ).toBeFocused();
});

test("a blank rule name is marked at the Name field, said beside it, and takes the focus; nothing is saved", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "RuleName", ["suite_starter"]);
  await page.goto("/dashboard/rules");
  await page.getByTestId("rule-new").click();
  const name = page.getByTestId("rule-name");
  await name.fill("   ");
  await page.getByTestId("form-expression").check();
  await page.getByTestId("expression-input").fill("amount > 500");
  await page.getByTestId("rule-mode-shadow").check();
  await page.getByTestId("rule-save").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("rule-name-error")).toHaveText("Name must not be empty.");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription("Name must not be empty.");
  await expect(name).toBeFocused();
  // Said once, at the field, not again below the form; the expression is not marked.
  await expect(page.getByTestId("rule-error")).toHaveCount(0);
  await expect(page.getByTestId("expression-input")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("rules-empty")).toBeVisible();
  await snap(page, testInfo, "rules-blank-name-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
  await snap(page, testInfo, "rules-blank-name-390");
  // Typing a name clears the mark; saving then creates the rule.
  await name.fill("Big baskets");
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("rule-name-error")).toHaveCount(0);
  await page.getByTestId("rule-save").click();
  await expect(page.getByTestId("rules-notice")).toHaveText("Rule created.");
});

test("the rules' measures that could not be read say so with Retry, never “No measures yet”", async ({
  page,
  request,
}, testInfo) => {
  const key = await newWorkspace(page, "RuleMeasures", ["suite_starter"]);
  const created = await request.post("/v1/rules", {
    headers: { authorization: `Bearer ${key}` },
    data: { name: "Big baskets", action: "review", expression: "amount > 500" },
  });
  expect(created.status()).toBe(200);
  // The measures (analytics summary) fail inside tRPC's batch while the rules themselves answer.
  const failSummary = failInBatch(
    ["workspace.analyticsSummary"],
    unavailable("The measures could not be read; try again shortly."),
  );
  await page.route("**/api/trpc/**", failSummary);
  await page.goto("/dashboard/rules");
  const row = page.getByTestId("rule-row");
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId("rule-stats-error")).toContainText("could not be read", { timeout: 20_000 });
  await expect(row).not.toContainText("No measures yet");
  await expect(page.locator("main")).not.toContainText("UPSTREAM_UNAVAILABLE");
  await snap(page, testInfo, "rules-measures-error-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
  await snap(page, testInfo, "rules-measures-error-390");
  await page.unroute("**/api/trpc/**", failSummary);
  await page.getByTestId("rule-stats-error").getByRole("button", { name: "Retry" }).click();
  await expect(page.getByTestId("rule-stats-error")).toHaveCount(0);
  // No assessment yet: the rule matched none (the summary may list it with 0 or not at all).
  await expect(row).toContainText(/Matched 0 in|No measures yet/);

  // A refusal that reading again cannot lift (the session ended) is said once in the service's words, with no
  // Retry; the row says its measures were not read, never that there are none.
  const refuseSummary = failInBatch(["workspace.analyticsSummary"], {
    message: "Sign in first.",
    code: -32001,
    data: { code: "UNAUTHORIZED", httpStatus: 401, appCode: "UNAUTHORIZED" },
  });
  await page.route("**/api/trpc/**", refuseSummary);
  await page.reload();
  await expect(page.getByTestId("rules-section").getByTestId("error-note")).toHaveText("Sign in first.", {
    timeout: 20_000,
  });
  await expect(page.getByTestId("rules-section").getByRole("button", { name: "Retry" })).toHaveCount(0);
  await expect(row).toContainText("Measures not read");
  await expect(row).not.toContainText("No measures yet");
  await page.unroute("**/api/trpc/**", refuseSummary);
});

test("a rule saved under an older check (country is XX) can be renamed from its editor; its condition stays as stored", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "LegacyRule", ["suite_starter"]);
  await page.goto("/dashboard/rules");
  await page.getByTestId("rule-new").click();
  await page.getByTestId("rule-name").fill("Old country rule");
  await page.getByTestId("condition-row").first().getByTestId("condition-value").fill("DE");
  await page.getByTestId("rule-mode-shadow").check();
  await page.getByTestId("rule-save").click();
  await expect(page.getByTestId("rules-notice")).toHaveText("Rule created.");
  // As a rule saved before conditions were judged by the country check (43b0a6e) is stored: `country eq XX`.
  const legacy = JSON.stringify([{ field: "country", op: "eq", value: "XX" }]);
  let ruleId = "";
  await asOperator(page, async (client, s, ws) => {
    const rows = await client.query<{ id: string }>(
      `UPDATE "${s}"."Rule" SET conditions = $1::jsonb WHERE "workspaceId" = $2 RETURNING id`,
      [legacy, ws],
    );
    ruleId = rows.rows[0]!.id;
  });
  await page.reload();
  const row = page.getByTestId("rule-row");
  await expect(row.locator(".rule-test")).toContainText("ip.country is XX");

  await page.getByRole("button", { name: "Edit or test “Old country rule”" }).click();
  await expect(page.getByTestId("rule-name")).toBeFocused();
  await page.getByTestId("rule-name").fill("Renamed country rule");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("rules-notice")).toHaveText("Rule saved.");
  await expect(page.getByTestId("rule-editor")).toHaveCount(0);
  await expect(row.getByTestId("rule-row-name")).toHaveText("Renamed country rule");
  await expect(page.getByRole("button", { name: "Edit or test “Renamed country rule”" })).toBeFocused();
  await snap(page, testInfo, "rules-legacy-renamed-1280");
  await asOperator(page, async (client, s) => {
    const rows = await client.query<{ name: string; conditions: unknown }>(
      `SELECT name, conditions FROM "${s}"."Rule" WHERE id = $1`,
      [ruleId],
    );
    expect(rows.rows[0]!.name).toBe("Renamed country rule");
    const stored = rows.rows[0]!.conditions;
    expect(typeof stored === "string" ? JSON.parse(stored) : stored).toEqual(JSON.parse(legacy));
  });

  // Changing the condition itself is judged as any new condition is: said at its row, nothing saved.
  await page.getByRole("button", { name: "Edit or test “Renamed country rule”" }).click();
  const value = page.getByTestId("condition-row").first().getByTestId("condition-value");
  await expect(value).toHaveValue("XX");
  await value.fill("XY");
  await page.getByTestId("rule-save").click();
  await expect(page.getByTestId("condition-row").first().getByTestId("condition-error")).toContainText(
    "two-letter country code",
  );
});
