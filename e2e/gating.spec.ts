// Free gating, the same on every paid page (issue 22, item 6): a Free workspace sees the plan gate, with its
// workspace id for the operator, before any form; the console disables the run button for a lookup its plan lacks.
// Also the first-run screen's plan sentence and the skip link (item 8).
import { expect, test } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { createFirstWorkspace, currentWorkspaceId, signIn, snap, uniqueEmail } from "./helpers";

test("a Free workspace sees the plan gate before the form on every paid page", async ({ page }, testInfo) => {
  await signIn(page, uniqueEmail("gating"));
  await expect(page.getByTestId("first-run-plan")).toContainText("starts on the Free plan");
  await createFirstWorkspace(page, "Gated");
  const id = await currentWorkspaceId(page);

  const paid: [string, string][] = [
    ["/dashboard/assess", "Assess"],
    ["/dashboard/scans", "Scan"],
    ["/dashboard/device", "Check this browser"],
    ["/dashboard/reports", "Save report (1 unit)"],
  ];
  for (const [url, action] of paid) {
    await page.goto(url);
    const gate = page.getByTestId("plan-gate");
    await expect(gate, url).toBeVisible();
    await expect(gate).toContainText("This workspace's plan does not include them");
    await expect(gate.getByTestId("gate-workspace-id")).toHaveText(id);
    await expect(page.getByRole("button", { name: action, exact: true }), url).toHaveCount(0);
    await expect(page.getByText(/This endpoint needs/)).toHaveCount(0);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/assess");
  await expect(page.getByTestId("plan-gate")).toBeVisible();
  await snap(page, testInfo, "assess-plan-gate-390");

  // The console: a full-intelligence lookup cannot be run on Free; a geolocation one can.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/dashboard/console");
  await page.locator('[data-procedure="geo.ipGeo"]').click();
  await expect(page.getByTestId("run-lookup")).toBeEnabled();
  await page.getByTestId("lookup-search").fill("reputation");
  await page.locator("[data-procedure]").first().click();
  await expect(page.getByTestId("lookup-panel")).toContainText("cannot run here");
  await expect(page.getByTestId("lookup-cost")).toContainText("needs a Suite or Lookups plan");
  await expect(page.getByTestId("lookup-panel")).not.toContainText("full capability");
  await expect(page.getByTestId("run-lookup")).toBeDisabled();
});

test("every dashboard page starts with a skip link to the main content", async ({ page }) => {
  await newWorkspace(page, "Skip", []);
  await page.goto("/dashboard/history");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to main content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
});
