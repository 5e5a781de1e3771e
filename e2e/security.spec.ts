import { expect, test } from "@playwright/test";
import { createFirstWorkspace, signIn, snap, uniqueEmail } from "./helpers";

test("the dashboard needs a session", async ({ page }) => {
  await page.goto("/dashboard/keys");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  const api = await page.request.get("/api/trpc/account.overview");
  expect(api.status()).toBe(401);
});

test("cookie-authenticated mutations need the dashboard's own origin, and other workspaces stay hidden", async ({
  page,
  browser,
}) => {
  await signIn(page, uniqueEmail("sec-a"));
  await createFirstWorkspace(page, "Mine");

  const forged = await page.request.post("/api/trpc/account.createWorkspace", {
    headers: { Origin: "http://evil.example", "Content-Type": "application/json" },
    data: { name: "forged" },
  });
  expect(forged.status()).toBe(403);
  expect(((await forged.json()) as { error: { data: { appCode: string } } }).error.data.appCode).toBe(
    "ORIGIN_FORBIDDEN",
  );

  const other = await browser.newContext();
  try {
    const theirs = await other.newPage();
    await signIn(theirs, uniqueEmail("sec-b"));
    await createFirstWorkspace(theirs, "Theirs");
    const cookies = await other.cookies();
    const theirId = cookies.find((c) => c.name === "svc_workspace")?.value;
    expect(theirId).toMatch(/^ws_/);
    const peek = await page.request.get("/api/trpc/account.keys", { headers: { "X-Service-Workspace": theirId! } });
    expect(peek.status()).toBe(404);
    expect(((await peek.json()) as { error: { data: { appCode: string } } }).error.data.appCode).toBe("NOT_FOUND");
  } finally {
    await other.close();
  }
});

test("the API reference lists the geolocation endpoint with its cost and the error shape, offline", async ({
  page,
}, testInfo) => {
  const external: string[] = [];
  page.on("request", (r) => {
    if (!r.url().startsWith("http://127.0.0.1")) external.push(r.url());
  });
  await page.goto("/docs");
  const op = page.locator("#get-ip-ip-geo");
  await expect(op).toContainText("/v1/ip/{ip}/geo");
  await expect(op).toContainText("Cost: 1 unit");
  await expect(op).toContainText("geolocation");
  // An operation's parameters, examples and responses are fetched when it is opened (issue 22, item 7).
  await op.getByTestId("operation-open").click();
  await expect(op).toContainText("X-Service-Quota-Remaining");
  await expect(page.locator("#errors")).toContainText('{ "error": { "code"');
  await snap(page, testInfo, "docs", { fullPage: false });
  expect(external).toEqual([]);
});

test("the sign-in page labels the development sign-in", async ({ page }, testInfo) => {
  await page.goto("/signin");
  await expect(page.getByRole("heading", { name: "Development sign-in" })).toBeVisible();
  await expect(page.getByText("anyone can sign in here as any email address")).toBeVisible();
  // Plain words for a visitor: the settings to change are in the server's log, not on the page.
  await expect(page.locator("main")).toContainText("ask the operator of this service to set up sign-in");
  expect(await page.locator("body").innerText()).not.toMatch(/SERVICE_|OIDC/);
  await snap(page, testInfo, "signin");
});
