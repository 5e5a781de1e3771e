import { expect, test } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { failInBatch, grantPlans, signIn, snap, unavailable, uniqueEmail } from "./helpers";

test("owners invite and remove members; an invited member sees the workspace without owner controls", async ({
  page,
  browser,
}, testInfo) => {
  page.on("dialog", (d) => void d.accept());
  await newWorkspace(page, "Team", ["suite_starter"]); // Free includes one member: the owner
  const invitee = uniqueEmail("member");

  await page.goto("/dashboard/members");
  await page.getByLabel("Email").fill(invitee);
  await page.getByRole("button", { name: "Invite" }).click();
  const row = page.locator(`[data-testid=member-row][data-email="${invitee}"]`);
  await expect(row).toContainText("invited");
  await snap(page, testInfo, "members-invited");

  // Inviting the same person again says they are invited (not "already a member"), in words, without a code.
  await page.getByLabel("Email").fill(invitee);
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByTestId("members-error")).toContainText("has already been invited");
  await expect(page.getByTestId("members-error")).not.toContainText("already a member");
  await expect(page.getByTestId("members-error")).not.toContainText(/[A-Z]{3,}_[A-Z_]+|CONFLICT/);
  await snap(page, testInfo, "members-invited-twice");
  // The error goes with the next action (issue 22, item 5).
  await page.getByLabel("Email").fill(uniqueEmail("second-invitee"));
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByTestId("member-row")).toHaveCount(3);
  await expect(page.getByTestId("members-error")).toHaveCount(0);

  const other = await browser.newContext();
  try {
    const memberPage = await other.newPage();
    await signIn(memberPage, invitee);
    await expect(memberPage.getByTestId("workspace-name")).toHaveText("Team");
    await expect(memberPage.getByTestId("my-role")).toHaveText("member");
    await memberPage.goto("/dashboard/keys");
    await expect(memberPage.getByText("Only workspace owners create and revoke keys.")).toBeVisible();
    await expect(memberPage.getByRole("button", { name: "Create key" })).toHaveCount(0);
    await memberPage.goto("/dashboard/members");
    await expect(memberPage.getByRole("button", { name: "Remove" })).toHaveCount(0);
    await snap(memberPage, testInfo, "members-as-member");
  } finally {
    await other.close();
  }

  await page.reload();
  await expect(row).toContainText("joined");
  // After a downgrade the member stays listed, marked as not included, with the reason.
  await grantPlans(page, ["free"]);
  await page.goto("/dashboard/members");
  await expect(row.getByTestId("not-included")).toHaveText("not included");
  await expect(row).toContainText("The workspace's plan includes 1 member (owners count)");
  await snap(page, testInfo, "members-not-included");
  await row.getByRole("button", { name: "Remove" }).click();
  await row.getByRole("button", { name: "Yes, remove" }).click();
  await expect(row).toHaveCount(0);
  // The row went with the button pressed in it: the line that says who was removed has the focus.
  await expect(page.getByTestId("done-notice")).toHaveText(`Removed ${invitee}.`);
  await expect(page.getByTestId("done-notice")).toBeFocused();
  await snap(page, testInfo, "members-removed");
});

test("removing a member by keyboard: the question takes focus on Cancel, so Enter twice keeps them, and Escape cancels", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "TeamKeys", ["suite_starter"]);
  const invitee = uniqueEmail("kept");
  await page.goto("/dashboard/members");
  await page.getByLabel("Email").fill(invitee);
  await page.getByRole("button", { name: "Invite" }).click();
  const row = page.locator(`[data-testid=member-row][data-email="${invitee}"]`);
  await expect(row).toContainText("invited");

  const remove = row.getByRole("button", { name: "Remove", exact: true });
  await remove.focus();
  await page.keyboard.press("Enter");
  const question = row.getByRole("alertdialog", { name: `Remove ${invitee}` });
  await expect(question).toContainText(`Remove ${invitee}?`);
  await expect(question.getByRole("button", { name: "Cancel" })).toBeFocused();
  await snap(page, testInfo, "members-remove-question");
  await page.keyboard.press("Enter");
  await expect(question).toHaveCount(0);
  await expect(row).toHaveCount(1);
  await expect(remove).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(question).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(question).toHaveCount(0);
  await expect(row).toHaveCount(1);
  await expect(remove).toBeFocused();
});

test("the only owner is offered no role change or removal of themselves, which would be refused", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "SoleOwner", ["suite_starter"]);
  await page.goto("/dashboard/members");
  const own = page.getByTestId("member-row");
  await expect(own).toHaveCount(1);
  await expect(own).toContainText("Owner");
  // The last owner can neither become a member nor be removed (409 CONFLICT): no buttons that can only be refused.
  await expect(own.getByRole("button")).toHaveCount(0);
  await expect(own.getByTestId("sole-owner")).toHaveText(
    "The only owner: make another member an owner first to change this role or remove them.",
  );
  await snap(page, testInfo, "members-sole-owner-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await snap(page, testInfo, "members-sole-owner-390");
  // A second owner (invited: owners are counted, joined or not) makes both rows' actions possible.
  const second = uniqueEmail("second-owner");
  await page.getByLabel("Email").fill(second);
  await page.getByLabel("Role").selectOption("owner");
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByTestId("member-row")).toHaveCount(2);
  for (const row of await page.getByTestId("member-row").all()) {
    await expect(row.getByRole("button", { name: "Make member" })).toBeVisible();
    await expect(row.getByRole("button", { name: "Remove", exact: true })).toBeVisible();
    await expect(row.getByTestId("sole-owner")).toHaveCount(0);
  }
});

test("a member list that could not be read says so with Retry, and Retry reads it", async ({ page }, testInfo) => {
  await newWorkspace(page, "MembersRead", ["suite_starter"]);
  const fail = failInBatch(["account.members"], unavailable("The database did not answer in time."));
  await page.route("**/api/trpc/**", fail);
  await page.goto("/dashboard/members");
  const note = page.getByTestId("members-read-error");
  await expect(note).toHaveText("The members could not be read. Retry", { timeout: 20_000 });
  await snap(page, testInfo, "members-read-failed-1280");
  await page.unroute("**/api/trpc/**", fail);
  await note.getByRole("button", { name: "Retry" }).click();
  await expect(note).toHaveCount(0);
  await expect(page.getByTestId("member-row")).toHaveCount(1);
});
