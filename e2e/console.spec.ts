import { expect, test } from "@playwright/test";
import { createFirstWorkspace, signIn, snap, uniqueEmail } from "./helpers";

test("the lookup console shows the cost, runs the geolocation lookup and shows the result and the quota change", async ({ page }, testInfo) => {
  await signIn(page, uniqueEmail("console"));
  await createFirstWorkspace(page, "Console");
  await page.goto("/dashboard/console");
  await expect(page.getByRole("link", { name: "IP Geolocation by DB-IP" })).toHaveAttribute("href", "https://db-ip.com");

  await page.locator('[data-procedure="geo.ipGeo"]').click();
  await expect(page.getByTestId("lookup-cost")).toContainText("1 unit");
  await expect(page.getByTestId("lookup-cost")).toContainText("geolocation");
  await page.getByTestId("lookup-panel").locator('input[name="ip"]').fill("8.8.8.8");
  await page.getByTestId("run-lookup").click();

  const result = page.getByTestId("result-view");
  await expect(result).toContainText("8.8.8.8");
  await expect(result.locator('tr[data-key="country"]')).toContainText("US");
  await expect(page.getByTestId("quota-after")).toHaveText("1");
  await expect(page.getByTestId("usage-used")).toHaveText("1");
  await snap(page, testInfo, "console-result");

  await result.getByLabel("Raw JSON").check();
  await expect(result.locator("pre")).toContainText('"ip": "8.8.8.8"');

  // A private address answers with null location fields and says why.
  await page.getByTestId("lookup-panel").locator('input[name="ip"]').fill("10.1.2.3");
  await page.getByTestId("run-lookup").click();
  await expect(page.getByTestId("quota-after")).toHaveText("2");
  await expect(result.locator('tr[data-key="city"] .null')).toHaveText("null");
  await expect(result.locator('tr[data-key="reason"]')).not.toBeEmpty();

  // Invalid input is refused before any unit is reserved.
  await page.getByTestId("lookup-panel").locator('input[name="ip"]').fill("not-an-ip");
  await page.getByTestId("run-lookup").click();
  await expect(page.getByTestId("error-note")).toContainText("INVALID_REQUEST");
  await expect(page.getByTestId("quota-after")).toHaveText("2");
  await snap(page, testInfo, "console-invalid");
});
