// The plan page in each billing mode. Operator mode (the suite's server): the page shows plans, figures and whom
// to ask; only the operator's command changes the plan. Stripe mode (a second server started here, pointed at a
// fake Stripe API on 127.0.0.1): Checkout redirects to the fake, and the plan arrives with a signed event.
import { expect, test, type Browser } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { startFakeStripe, stripeEnv, type FakeStripe } from "../test/billing/fake-stripe";
import { newWorkspace } from "./dashboard-steps";
import { createFirstWorkspace, currentWorkspaceId, grantPlans, signIn, snap, uniqueEmail } from "./helpers";

async function noHorizontalScroll(page: import("@playwright/test").Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  // The plan page's own content (the shared header is the layout's); names what sticks out, if anything.
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll("main.dash-main *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}px`),
  );
  expect(wide).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("operator mode: the plan page shows the plans, their figures and whom to ask; only the operator's grant changes them", async ({
  page,
}, testInfo) => {
  const key = await newWorkspace(page, "Operator plans", []);
  const lookup = await page.request.get("/v1/ip/8.8.8.8/geo", { headers: { Authorization: `Bearer ${key}` } });
  expect(lookup.status()).toBe(200);
  await page.goto("/dashboard/plan");
  await expect(page.getByTestId("plan-summary")).toContainText("Your plans: Free");
  // This month's usage against the allowance, and when it starts again.
  const usage = page.getByTestId("plan-usage");
  await expect(usage.getByTestId("usage-used")).toHaveText("1");
  await expect(usage.getByTestId("usage-limit")).toHaveText("1,000");
  const next = new Date();
  const reset = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
  await expect(usage).toContainText(`Resets ${reset} 00:00 UTC`);
  const figures = page.getByTestId("plan-figures");
  await expect(figures).toContainText("1,000 units");
  await expect(figures).toContainText("Sender slots0");
  await expect(page.getByTestId("billing-mode")).toHaveAttribute("data-mode", "operator");
  await expect(page.getByTestId("billing-contact")).toContainText("To ask for a change");
  await expect(page.locator("input[type=checkbox]")).toHaveCount(0);
  await expect(page.getByRole("button", { name: /save plan|subscribe/i })).toHaveCount(0);
  // What happens at the limit, in words: no HTTP status (it read "lookups answer 402 until the next UTC month").
  const rules = page.getByTestId("plans-intro");
  await expect(rules).toContainText("at the limit, lookups are refused until the next UTC month");
  await expect(rules).not.toContainText("402");
  await snap(page, testInfo, "plan-operator-free");
  await noHorizontalScroll(page);

  // The operator's command line itself (the other journeys hand the same command to the server's admin channel).
  const granted = await grantPlans(page, ["suite_agency"], { cli: true });
  expect(granted.effectivePlans).toEqual(["suite_agency"]);
  await expect(page.getByTestId("plan-summary")).toContainText("Your plans: Suite Agency");
  await expect(figures).toContainText("250,000 units");
  await expect(page.getByTestId("subscriptions")).toContainText("granted by the operator");
  await snap(page, testInfo, "plan-operator-agency");
});

test.describe("stripe mode", () => {
  let fake: FakeStripe;
  let server: ChildProcess;
  let dataDir: string;
  const port = String(Number(process.env.E2E_PORT ?? "3217") + 50);
  const base = `http://127.0.0.1:${port}`;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    fake = await startFakeStripe();
    dataDir = mkdtempSync(path.join(tmpdir(), "svc-e2e-stripe-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...stripeEnv(fake),
      PORT: port,
      HOST: "127.0.0.1",
      SERVICE_DATA_DIR: dataDir,
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      SERVICE_DEV_SIGNIN: "1",
      SERVICE_SEED_DEMO: "0",
      SERVICE_WEBHOOK_WORKER: "0",
      SERVICE_METRICS_PORT: "",
    };
    delete env.DATABASE_URL;
    delete env.NEXTAUTH_URL;
    delete env.SERVICE_PUBLIC_URL;
    // Its own process group, so that stopping it stops the Next server it starts too.
    server = spawn(process.execPath, [path.join(process.cwd(), "scripts", "start.mjs")], {
      env,
      stdio: "ignore",
      detached: true,
    });
    for (let i = 0; i < 480; i++) {
      const ok = await fetch(`${base}/v1/openapi.json`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error("the Stripe-mode server did not start");
  });

  test.afterAll(async () => {
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
    await fake?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function stripePage(browser: Browser) {
    const context = await browser.newContext({ baseURL: base });
    return context.newPage();
  }

  test("Checkout redirects to Stripe, the plan arrives with the signed event, and the portal opens", async ({
    browser,
  }, testInfo) => {
    // Every route of this second server answers its first request cold (sign-in, dashboard, plan page, webhook):
    // about 35 s on a quiet 2-core machine, and past the default minute when the machine is also busy elsewhere.
    test.setTimeout(120_000);
    const page = await stripePage(browser);
    await signIn(page, uniqueEmail("stripe-plan"));
    await createFirstWorkspace(page, "Stripe plans");
    await page.goto("/dashboard/plan");
    await expect(page.getByTestId("billing-mode")).toHaveAttribute("data-mode", "stripe");
    await expect(page.getByRole("button", { name: /Manage billing/ })).toHaveCount(0);
    await snap(page, testInfo, "plan-stripe-free");
    await noHorizontalScroll(page);

    await page.getByRole("button", { name: "Subscribe to Suite Agency" }).click();
    await page.waitForURL(new RegExp(`^${fake.url}/checkout/cs_fake\\d+$`));
    await expect(page.getByRole("heading", { name: "Fake Stripe Checkout" })).toBeVisible();
    await snap(page, testInfo, "fake-checkout");

    // Stripe has taken the payment: it holds the subscription and sends the signed event.
    await page.goto("/dashboard/plan?billing=success");
    await expect(page.getByTestId("billing-returned")).toContainText("as soon as Stripe confirms");
    const workspaceId = await currentWorkspaceId(page);
    const customer = fake.calls.find(
      (c) => c.path === "/v1/customers" && c.params["metadata[workspace_id]"] === workspaceId,
    );
    expect(customer).toBeTruthy();
    const customerId = fake.calls.find((c) => c.path === "/v1/checkout/sessions")!.params.customer;
    fake.putSubscription({ id: "sub_e2e", customer: customerId, price: "price_suite_agency" });
    const payload = JSON.stringify({
      id: "evt_e2e_1",
      object: "event",
      type: "checkout.session.completed",
      data: { object: { id: "cs_e2e", object: "checkout.session", customer: customerId, subscription: "sub_e2e" } },
    });
    const header = new Stripe("sk_test_unused").webhooks.generateTestHeaderString({
      payload,
      secret: stripeEnv(fake).STRIPE_WEBHOOK_SECRET,
    });
    const res = await page.request.post("/billing/stripe/webhook", {
      data: payload,
      headers: { "Stripe-Signature": header, "Content-Type": "application/json" },
    });
    expect(res.status()).toBe(200);

    await page.reload();
    await expect(page.getByTestId("plan-summary")).toContainText("Your plans: Suite Agency");
    await expect(page.getByTestId("subscriptions")).toContainText("paid through Stripe");
    await expect(page.getByRole("button", { name: "Switch to Lookups Growth" })).toBeVisible();
    await snap(page, testInfo, "plan-stripe-agency");
    await page.getByRole("button", { name: /Manage billing/ }).click();
    await page.waitForURL(new RegExp(`^${fake.url}/portal/bps_fake\\d+$`));
    await page.context().close();
  });
});
