// Several workspaces for one user: each has its own keys and usage, and the switcher moves between them. This is
// also the journey that signs in through the development sign-in's form (the others post to its endpoints).
import { expect, test } from "@playwright/test";
import { createFirstWorkspace, signInThroughForm, snap, uniqueEmail } from "./helpers";

test("a user with several workspaces switches between them, and each has its own keys and usage", async ({
  page,
  request,
}, testInfo) => {
  await signInThroughForm(page, uniqueEmail("switch"));
  const firstKey = await createFirstWorkspace(page, "Alpha");
  expect((await request.get("/v1/ip/1.1.1.1/geo", { headers: { "X-API-Key": firstKey } })).status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("usage-used")).toHaveText("1");

  await page.getByText("Create another workspace").click();
  await page.getByLabel("Workspace name").fill("Beta");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page.getByTestId("new-api-key")).toBeVisible();
  await page.getByRole("button", { name: "Open the workspace" }).click();
  await expect(page.getByTestId("workspace-name")).toHaveText("Beta");
  await expect(page.getByTestId("usage-used")).toHaveText("0");
  await snap(page, testInfo, "overview-second-workspace");

  const switcher = page.getByTestId("workspace-switcher");
  await expect(switcher.locator("option")).toHaveCount(2);
  await switcher.selectOption({ label: "Alpha (owner)" });
  await expect(page.getByTestId("workspace-name")).toHaveText("Alpha");
  await expect(page.getByTestId("usage-used")).toHaveText("1");
});
