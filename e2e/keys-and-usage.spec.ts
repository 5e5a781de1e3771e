import { expect, test } from "@playwright/test";
import { choosePlans, createFirstWorkspace, createKey, geoLookup, keyRow, signIn, snap, uniqueEmail } from "./helpers";

test("a key created in the dashboard calls /v1/ip/8.8.8.8/geo and the usage meter moves; revoking it is final", async ({ page, request }, testInfo) => {
  page.on("dialog", (d) => void d.accept());
  await signIn(page, uniqueEmail("keys"));
  await snap(page, testInfo, "first-run");
  const firstKey = await createFirstWorkspace(page, "Keys and usage");
  await expect(page.getByTestId("usage-used")).toHaveText("0");
  await expect(page.getByTestId("usage-limit")).toHaveText("1,000");
  await snap(page, testInfo, "overview-before");

  const first = await geoLookup(request, firstKey);
  expect(first.status()).toBe(200);
  expect(first.headers()["x-service-quota-used"]).toBe("1");
  expect(((await first.json()) as { ip: string }).ip).toBe("8.8.8.8");

  // Free allows one key: the dashboard says so instead of creating a second.
  await page.goto("/dashboard/keys");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("error-note")).toContainText("KEY_LIMIT_REACHED");

  await choosePlans(page, ["suite_starter"]);
  await snap(page, testInfo, "plan");
  const key = await createKey(page, "e2e key");
  await snap(page, testInfo, "keys-shown-once");

  const res = await geoLookup(request, key);
  expect(res.status()).toBe(200);
  expect(res.headers()["x-service-quota-used"]).toBe("2");
  expect(res.headers()["x-service-quota-remaining"]).toBe("998");

  await page.goto("/dashboard");
  await expect(page.getByTestId("usage-used")).toHaveText("2");
  await expect(page.getByTestId("usage-remaining")).toHaveText("998");
  await snap(page, testInfo, "overview-after");

  await page.goto("/dashboard/keys");
  await expect(keyRow(page, key).getByTestId("status-badge")).toHaveText("active");
  await expect(keyRow(page, key).getByTestId("last-used")).toContainText("UTC");
  await keyRow(page, key).getByRole("button", { name: "Revoke" }).click();
  await expect(keyRow(page, key).getByTestId("status-badge")).toHaveText("revoked");
  await snap(page, testInfo, "keys-revoked");

  const revoked = await geoLookup(request, key);
  expect(revoked.status()).toBe(401);
  expect(await revoked.json()).toEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
});

test("lowering the plan pauses the newest keys and raising it resumes them", async ({ page, request }, testInfo) => {
  await signIn(page, uniqueEmail("plan"));
  const oldest = await createFirstWorkspace(page, "Plan changes");
  await choosePlans(page, ["lookups_developer"]);
  const second = await createKey(page, "second");
  const third = await createKey(page, "third");

  await choosePlans(page, ["free"]);
  await expect(page.getByTestId("plan-saved")).toContainText("1 key active, 2 paused");
  await page.goto("/dashboard/keys");
  await expect(keyRow(page, oldest).getByTestId("status-badge")).toHaveText("active");
  await expect(keyRow(page, second).getByTestId("status-badge")).toHaveText("paused");
  await expect(keyRow(page, third).getByTestId("status-badge")).toHaveText("paused");
  await snap(page, testInfo, "keys-paused");

  const paused = await geoLookup(request, third);
  expect(paused.status()).toBe(403);
  expect(((await paused.json()) as { error: { code: string } }).error.code).toBe("API_KEY_PAUSED");
  expect((await geoLookup(request, oldest)).status()).toBe(200);

  await choosePlans(page, ["suite_starter"]);
  await page.goto("/dashboard/keys");
  await expect(keyRow(page, third).getByTestId("status-badge")).toHaveText("active");
  expect((await geoLookup(request, third)).status()).toBe(200);
});
