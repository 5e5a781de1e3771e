import { expect, test } from "@playwright/test";
import { createFirstWorkspace, signIn, snap, uniqueEmail } from "./helpers";

test("owners invite and remove members; an invited member sees the workspace without owner controls", async ({ page, browser }, testInfo) => {
  page.on("dialog", (d) => void d.accept());
  await signIn(page, uniqueEmail("owner"));
  await createFirstWorkspace(page, "Team");
  const invitee = uniqueEmail("member");

  await page.goto("/dashboard/members");
  await page.getByLabel("Email").fill(invitee);
  await page.getByRole("button", { name: "Invite" }).click();
  const row = page.locator(`[data-testid=member-row][data-email="${invitee}"]`);
  await expect(row).toContainText("invited");
  await snap(page, testInfo, "members-invited");

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
  await row.getByRole("button", { name: "Remove" }).click();
  await expect(row).toHaveCount(0);
  await snap(page, testInfo, "members-removed");
});
