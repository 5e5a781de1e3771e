// A button pressed from the keyboard keeps the focus while its action runs and after (BusyButton): it was disabled
// while busy, and a disabled button drops the focus to the page's top. While busy it says so (aria-disabled,
// aria-busy) and ignores more presses: pressed twice, or Enter twice in its form's field, the action runs once. Each
// action is held in the browser (page.route) until the journey lets it go, so the busy state can be seen.
import { expect, test, type Page } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { snap, uniqueEmail } from "./helpers";

/** Holds the dashboard's calls to `procedure` until `release()`, counting them. */
async function hold(page: Page, procedure: string) {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => (release = r));
  const calls = { count: 0 };
  await page.route(new RegExp(`/api/trpc/[^?]*${procedure.replace(".", "\\.")}`), async (route) => {
    calls.count++;
    await gate;
    await route.continue();
  });
  return { calls, release };
}

test("an outcome button keeps the focus while it saves and after, and two presses label once", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Busy outcome", ["suite_business"]);
  await page.goto("/dashboard/assess");
  await page.getByRole("button", { name: "Fill in an example" }).click();
  await page.getByTestId("run-assessment").click();
  await expect(page.getByTestId("assessment-answer")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("outcome-saved")).toHaveText("Not labelled yet.");

  const outcome = await hold(page, "assessment.outcome");
  const fraud = page.getByTestId("outcome-fraud");
  await fraud.focus();
  await page.keyboard.press("Enter");
  await expect(fraud).toHaveAttribute("aria-busy", "true");
  await expect(fraud).toHaveAttribute("aria-disabled", "true");
  await expect(fraud).toBeDisabled(); // as assistive technology and Playwright read aria-disabled
  await expect(fraud).toBeFocused();
  // The other labels wait for this one too, and say so.
  await expect(page.getByTestId("outcome-legitimate")).toHaveAttribute("aria-disabled", "true");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Space");
  await snap(page, testInfo, "busy-outcome-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await fraud.scrollIntoViewIfNeeded();
  await snap(page, testInfo, "busy-outcome-390", { fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  outcome.release();

  await expect(page.getByTestId("outcome-saved")).toContainText("Labelled “Fraud”");
  await expect(fraud).toHaveAttribute("aria-pressed", "true");
  await expect(fraud).not.toHaveAttribute("aria-busy");
  await expect(fraud).not.toHaveAttribute("aria-disabled");
  await expect(fraud).toBeFocused();
  expect(outcome.calls.count, "labels sent").toBe(1);

  // A mouse double click while the label saves also sends one.
  const legit = page.getByTestId("outcome-legitimate");
  const second = await hold(page, "assessment.outcome");
  await legit.dblclick();
  await expect(legit).toHaveAttribute("aria-busy", "true");
  second.release();
  await expect(page.getByTestId("outcome-saved")).toContainText("Labelled “Legitimate”");
  expect(outcome.calls.count + second.calls.count, "labels sent").toBe(2);
});

test("Invite keeps the focus while it runs and after, and Enter pressed again while it runs invites once", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Busy invite", ["suite_starter"]);
  await page.goto("/dashboard/members");
  const invitee = uniqueEmail("busy");
  await page.getByLabel("Email").fill(invitee);

  const invite = await hold(page, "account.inviteMember");
  const button = page.getByRole("button", { name: "Invite" });
  await button.focus();
  await page.keyboard.press("Enter");
  const busy = page.getByRole("button", { name: "Inviting…" });
  await expect(busy).toHaveAttribute("aria-busy", "true");
  await expect(busy).toBeFocused();
  await page.keyboard.press("Enter");
  await snap(page, testInfo, "busy-invite-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, testInfo, "busy-invite-390");
  await page.setViewportSize({ width: 1280, height: 800 });
  invite.release();

  await expect(page.locator(`[data-testid=member-row][data-email="${invitee}"]`)).toContainText("invited");
  await expect(button).toBeFocused();
  await expect(button).not.toHaveAttribute("aria-disabled");
  await expect(page.getByTestId("members-error")).toHaveCount(0);
  expect(invite.calls.count, "invitations sent").toBe(1);
});

test("Enter pressed twice in the key form's field while the key is made creates one key", async ({ page }) => {
  await newWorkspace(page, "Busy key", ["suite_starter"]);
  await page.goto("/dashboard/keys");
  await expect(page.getByTestId("key-row")).toHaveCount(1);
  const create = await hold(page, "account.createKey");
  const name = page.getByLabel("Key name");
  await name.fill("twice");
  await name.press("Enter");
  await expect(page.getByRole("button", { name: "Create key" })).toHaveAttribute("aria-busy", "true");
  await name.press("Enter");
  create.release();
  await expect(page.getByTestId("shown-once-key")).toBeFocused();
  await expect(page.getByTestId("key-row")).toHaveCount(2);
  expect(create.calls.count, "keys asked for").toBe(1);
});
