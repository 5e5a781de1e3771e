import { expect, test } from "@playwright/test";
import { newWorkspace } from "./dashboard-steps";
import { grantPlans, createFirstWorkspace, createKey, geoLookup, keyRow, signIn, snap, uniqueEmail } from "./helpers";

test("a key created in the dashboard calls /v1/ip/8.8.8.8/geo and the usage meter moves; revoking it is final", async ({
  page,
  request,
}, testInfo) => {
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
  await expect(page.getByTestId("error-note")).toHaveAttribute("data-code", "KEY_LIMIT_REACHED");
  await expect(page.getByTestId("error-note")).not.toContainText("KEY_LIMIT_REACHED");

  await grantPlans(page, ["suite_starter"]);
  await expect(page.getByTestId("plan-summary")).toContainText("Suite Starter");
  await snap(page, testInfo, "plan");
  const key = await createKey(page, "e2e key");
  // The form is ready for the next key, as the lists' and webhooks' forms are (a newcomer's walk found the old name
  // left in the field).
  await expect(page.getByLabel("Key name")).toHaveValue("");
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
  await keyRow(page, key).getByRole("button", { name: "Revoke", exact: true }).click();
  await keyRow(page, key).getByRole("button", { name: "Yes, revoke" }).click();
  await expect(keyRow(page, key).getByTestId("status-badge")).toHaveText("revoked");
  // The row has no Revoke button left to hold the focus: the line that says the key was revoked has it.
  await expect(page.getByTestId("done-notice")).toHaveText(/^Revoked “.+”\.$/);
  await expect(page.getByTestId("done-notice")).toBeFocused();
  await snap(page, testInfo, "keys-revoked");

  const revoked = await geoLookup(request, key);
  expect(revoked.status()).toBe(401);
  expect(await revoked.json()).toEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
});

test("lowering the plan pauses the newest keys and raising it resumes them", async ({ page, request }, testInfo) => {
  const oldest = await newWorkspace(page, "Plan changes", []);
  await grantPlans(page, ["lookups_developer"]);
  const second = await createKey(page, "second");
  const third = await createKey(page, "third");

  const lowered = await grantPlans(page, ["free"]);
  expect({ active: lowered.activeKeys.length, paused: lowered.pausedKeys.length }).toEqual({ active: 1, paused: 2 });
  await page.goto("/dashboard/keys");
  await expect(keyRow(page, oldest).getByTestId("status-badge")).toHaveText("active");
  await expect(keyRow(page, second).getByTestId("status-badge")).toHaveText("paused");
  await expect(keyRow(page, third).getByTestId("status-badge")).toHaveText("paused");
  await snap(page, testInfo, "keys-paused");

  const paused = await geoLookup(request, third);
  expect(paused.status()).toBe(403);
  expect(((await paused.json()) as { error: { code: string } }).error.code).toBe("API_KEY_PAUSED");
  expect((await geoLookup(request, oldest)).status()).toBe(200);

  await grantPlans(page, ["suite_starter"]);
  await page.goto("/dashboard/keys");
  await expect(keyRow(page, third).getByTestId("status-badge")).toHaveText("active");
  expect((await geoLookup(request, third)).status()).toBe(200);
});

test("revoking the key just created clears its copy-this-key-now box", async ({ page }, testInfo) => {
  await newWorkspace(page, "Shown once", ["suite_starter"]);
  const key = await createKey(page, "short-lived");
  await expect(page.getByTestId("shown-once-key")).toBeVisible();
  // The confirmation is in the page (no window.confirm); cancelling keeps the key and its box.
  await keyRow(page, key).getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(keyRow(page, key).getByRole("alertdialog")).toContainText("cannot be undone");
  // The question takes focus on its safe answer; Escape cancels it and gives focus back to Revoke.
  await expect(keyRow(page, key).getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(keyRow(page, key).getByRole("alertdialog")).toHaveCount(0);
  await expect(keyRow(page, key).getByRole("button", { name: "Revoke", exact: true })).toBeFocused();
  await keyRow(page, key).getByRole("button", { name: "Revoke", exact: true }).click();
  await keyRow(page, key).getByRole("button", { name: "Cancel" }).click();
  await expect(keyRow(page, key).getByTestId("status-badge")).toHaveText("active");
  await expect(page.getByTestId("shown-once-key")).toBeVisible();
  // At 390 px the question wraps inside the key's card instead of sticking out past its right edge.
  await page.setViewportSize({ width: 390, height: 844 });
  await keyRow(page, key).getByRole("button", { name: "Revoke", exact: true }).click();
  const card = (await keyRow(page, key).boundingBox())!;
  const question = (await keyRow(page, key).getByRole("alertdialog").boundingBox())!;
  expect(question.x + question.width, "the question's right edge").toBeLessThanOrEqual(card.x + card.width);
  await snap(page, testInfo, "keys-revoke-question-390");
  await keyRow(page, key).getByRole("button", { name: "Yes, revoke" }).click();
  await expect(keyRow(page, key).getByTestId("status-badge")).toHaveText("revoked");
  await expect(page.getByTestId("shown-once-key")).toHaveCount(0);
  await expect(page.getByText(key)).toHaveCount(0);
  await snap(page, testInfo, "keys-revoked-box-cleared");
});

test("after Create key from the keyboard, focus is on the new key's box, which says what it is, and Tab reaches its copy button", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Key focus", ["suite_starter"]);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/dashboard/keys");
  const name = page.getByLabel("Key name");
  await name.fill("keyboard");
  await name.press("Enter");
  const box = page.getByTestId("shown-once-key");
  // A screen reader lands on the box and reads its name (what to do now), then the key itself.
  await expect(box).toBeFocused();
  await expect(box).toHaveAttribute("role", "region");
  await expect(box).toHaveAccessibleName(
    "Copy this key now. It is shown only once; the service keeps only a hash of it.",
  );
  const key = ((await page.getByTestId("new-api-key").textContent()) ?? "").trim();
  expect(key).toMatch(/^svc_live_/);
  await page.keyboard.press("Tab");
  const copy = box.getByRole("button", { name: "Copy key" });
  await expect(copy).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(box.getByRole("button", { name: "Copied" })).toBeVisible();
  await expect(box.getByRole("status")).toHaveText("Copied to the clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await snap(page, testInfo, "keys-new-key-focused-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
  await snap(page, testInfo, "keys-new-key-focused-390");
});

test("an owner is never told only owners manage keys while the role is loading or failed to load", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "Role loading", []);
  // Hold the workspace overview (which carries the role) to see the loading state, then let it fail.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/api\/trpc\/[^?]*account\.overview/, async (route) => {
    await held;
    await route.fulfill({
      status: 500,
      contentType: "application/json",
      body: JSON.stringify([
        {
          error: {
            message: "Service unavailable",
            code: -32603,
            data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500 },
          },
        },
      ]),
    });
  });
  await page.goto("/dashboard/keys");
  await expect(page.getByTestId("role-loading")).toBeVisible();
  await expect(page.getByText("Only workspace owners create and revoke keys.")).toHaveCount(0);
  release();
  await expect(page.locator("main [data-read-failed]").first()).toContainText(
    "Your role in this workspace could not be read.",
  );
  await expect(page.getByText("Only workspace owners create and revoke keys.")).toHaveCount(0);
  await snap(page, testInfo, "keys-role-failed");
  await page.unroute(/\/api\/trpc\/[^?]*account\.overview/);
  await page.reload();
  await expect(page.getByRole("button", { name: "Create key" })).toBeVisible();
});

test("the usage figures keep a gap at 390 px and the console writes units as the meter does (249,997)", async ({
  page,
}, testInfo) => {
  const key = await newWorkspace(page, "Figures", ["suite_agency"]);
  for (const ip of ["1.1.1.1", "9.9.9.9"])
    expect((await page.request.get(`/v1/ip/${ip}/geo`, { headers: { "X-API-Key": key } })).status()).toBe(200);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard");
  await expect(page.getByTestId("usage-remaining")).toHaveText("249,998");
  // The plan's access in the Plan page's words, not the catalog's slugs ("Capabilities: full, geolocation, …").
  await expect(page.getByTestId("current-plans").locator("..")).toContainText("Access: Full intelligence");
  await expect(page.getByTestId("current-plans").locator("..")).not.toContainText(/Capabilities|full,/);
  // "2 of 250,000 lookup units used" and "249,998 remaining" never touch: a gap between them, or one under the other.
  const apart = await page.getByTestId("usage-meter").evaluate((meter) => {
    const [used, remaining] = [...meter.querySelector(".meter-figures")!.children].map((e) =>
      e.getBoundingClientRect(),
    );
    return remaining.top >= used.bottom - 1 || remaining.left - used.right >= 8;
  });
  expect(apart, "the two usage figures are apart").toBe(true);
  await snap(page, testInfo, "usage-meter-390", { fullPage: false });

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/dashboard/console");
  await page.locator('[data-procedure="geo.ipGeo"]').click();
  const panel = page.getByTestId("lookup-panel");
  await panel.getByRole("button", { name: "8.8.8.8" }).click();
  await page.getByTestId("run-lookup").click();
  await expect(page.getByTestId("quota-change")).toHaveText("Quota: used 2 → 3 (1 unit consumed, 249,997 remaining)");
});
