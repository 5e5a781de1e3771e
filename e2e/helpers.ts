// Shared steps for the dashboard tests: sign in through the development sign-in, create a workspace, read a
// shown-once key, and keep a full-page screenshot of each page visited as a test artifact.
import { expect, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import { randomBytes } from "node:crypto";

export function uniqueEmail(label: string): string {
  return `${label}-${randomBytes(4).toString("hex")}@example.test`;
}

export async function snap(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto("/signin?callbackUrl=%2Fdashboard");
  await expect(page.getByRole("heading", { name: "Development sign-in" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Sign in (development)" }).click();
  await page.waitForURL(/\/dashboard$/);
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
}

/** Creates a workspace from the first-run screen; returns the first API key, shown once. */
export async function createFirstWorkspace(page: Page, name: string): Promise<string> {
  await expect(page.getByRole("heading", { name: "Create your first workspace" })).toBeVisible();
  await page.getByLabel("Workspace name").fill(name);
  await page.getByRole("button", { name: "Create workspace" }).click();
  const key = (await page.getByTestId("new-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^svc_live_/);
  await page.getByRole("button", { name: "Open the workspace" }).click();
  await expect(page.getByTestId("workspace-name")).toHaveText(name);
  return key;
}

export async function choosePlans(page: Page, plans: string[]): Promise<void> {
  await page.goto("/dashboard/plan");
  const grid = page.getByTestId("plan-grid");
  await expect(grid.locator("input[type=checkbox]").first()).toBeVisible();
  for (const box of await grid.locator("input[type=checkbox]").all()) {
    const name = await box.getAttribute("name");
    await box.setChecked(plans.includes(name ?? ""));
  }
  await page.getByRole("button", { name: "Save plan" }).click();
  await expect(page.getByTestId("plan-saved")).toBeVisible();
}

export async function createKey(page: Page, name: string): Promise<string> {
  await page.goto("/dashboard/keys");
  await page.getByLabel("Key name").fill(name);
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").textContent())?.trim() ?? "";
  expect(key).toMatch(/^svc_live_/);
  return key;
}

export async function geoLookup(request: APIRequestContext, key: string, ip = "8.8.8.8") {
  return request.get(`/v1/ip/${ip}/geo`, { headers: { Authorization: `Bearer ${key}` } });
}

export function keyRow(page: Page, key: string) {
  return page.locator(`[data-testid=key-row][data-key-prefix="${key.slice(0, 13)}"]`);
}
