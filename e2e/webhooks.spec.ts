import { expectActionsInView, expectNoSidewaysScroll } from "./narrow";
import { expect, test } from "@playwright/test";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { asOperator, givePlan, newWorkspace } from "./dashboard-steps";
import { failInBatch, snap, unavailable } from "./helpers";

/** A webhook receiver on 127.0.0.1 that records what it gets and answers 204. */
async function startReceiver() {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

test("a webhook is created with its secret shown once, tested, logged with its payload, redelivered, edited, shown paused with why, and deleted", async ({
  page,
}, testInfo) => {
  const rx = await startReceiver();
  try {
    await newWorkspace(page, "Hooks", ["suite_agency"]);
    await page.goto("/dashboard/webhooks");
    await expect(page.getByTestId("webhooks-empty")).toBeVisible();
    // The introduction names every event the form offers, monitor alerts too.
    await expect(page.getByTestId("webhooks-intro")).toContainText(
      "When an assessment comes out high or critical, a review case is resolved, or a monitor raises or resolves an alert,",
    );
    await snap(page, testInfo, "webhooks-empty");

    await page.getByLabel("Name").fill("Fraud alerts");
    await page.getByLabel("Receiver URL").fill(rx.url);
    await page.getByRole("button", { name: "Create webhook" }).press("Enter");
    await expect(page.getByTestId("webhook-secret")).toHaveText(/^whsec_[A-Za-z0-9+/]+=*$/);
    // The secret's box takes the focus, as a new API key's does: the form (and the button pressed) is made anew for
    // the next webhook, and the focus fell to the page's top, with nothing saying a secret to copy had appeared.
    await expect(page.getByTestId("webhook-secret-box")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Copy secret" })).toBeFocused();
    await expect(page.getByRole("button", { name: "Copy secret" })).toBeVisible();
    await expect(page.getByTestId("webhook-row")).toHaveCount(1);
    // The form is cleared for the next one (issue 22, item 5).
    await expect(page.getByLabel("Name")).toHaveValue("");
    await expect(page.getByLabel("Receiver URL")).toHaveValue("");
    await snap(page, testInfo, "webhooks-created");

    await page.getByTestId("webhook-row").getByRole("link", { name: "Fraud alerts" }).click();
    await expect(page.getByRole("heading", { name: "Fraud alerts" })).toBeVisible();
    await expect(page.getByTestId("deliveries-empty")).toBeVisible();
    await page.getByRole("button", { name: "Send test event" }).click();
    const rows = page.getByTestId("delivery-row");
    await expect(rows.first()).toHaveAttribute("data-status", "delivered", { timeout: 20_000 });
    await expect(rows.first().getByTestId("delivery-response")).toHaveText("204");
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0].headers["webhook-signature"]).toMatch(/^v1,/);
    expect(JSON.parse(rx.received[0].body)).toMatchObject({ type: "high_risk_assessment", test: true });
    await rows.first().getByRole("button", { name: "Details" }).click();
    await expect(page.getByTestId("delivery-payload")).toContainText('"test": true');
    await snap(page, testInfo, "webhook-delivery-log");

    // At 390 px the log is stacked cards: Details and Redeliver stay in view.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectActionsInView(page.getByTestId("deliveries-table"), "the delivery log");
    await snap(page, testInfo, "webhook-delivery-log-390");
    await page.setViewportSize({ width: 1280, height: 900 });

    await rows.first().getByRole("button", { name: "Redeliver" }).click();
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toHaveAttribute("data-status", "delivered", { timeout: 20_000 });
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1].body).toBe(rx.received[0].body);

    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Name").fill("Checkout alerts");
    await page.getByRole("button", { name: "Save changes" }).press("Enter");
    await expect(page.getByRole("heading", { name: "Checkout alerts" })).toBeVisible();
    // The form went with the button pressed in it: the focus is back on Edit (it fell to the page's top).
    await expect(page.getByRole("button", { name: "Edit" })).toBeFocused();

    // What the worker writes when the plan lost webhooks: the log shows it as paused, and why.
    await asOperator(page, async (client, s, ws) => {
      const hook = await client.query<{ id: string }>(`SELECT id FROM "${s}"."Webhook" WHERE "workspaceId" = $1`, [ws]);
      await client.query(
        `INSERT INTO "${s}"."WebhookDelivery" (id, "webhookId", "workspaceId", "eventType", "requestId", payload, status, "nextAttemptAt", "lastError")
         VALUES ($1, $2, $3, 'high_risk_assessment', 'req_paused', '{}'::jsonb, 'paused', now() + interval '1 hour', 'paused: the workspace''s plan no longer includes webhooks')`,
        [`msg_${randomBytes(6).toString("hex")}`, hook.rows[0].id, ws],
      );
    });
    await page.reload();
    await expect(rows.first()).toHaveAttribute("data-status", "paused");
    await expect(page.getByTestId("delivery-why").first()).toContainText("plan no longer includes webhooks");
    await snap(page, testInfo, "webhook-paused");

    // The question takes focus on its safe answer; Escape closes it and gives focus back to Delete.
    await page.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("button", { name: "Keep it" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("alertdialog")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Delete" })).toBeFocused();
    await page.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Delete “Checkout alerts”");
    await page.getByRole("button", { name: "Yes, delete" }).press("Enter");
    await expect(page).toHaveURL(/\/dashboard\/webhooks$/);
    await expect(page.getByTestId("webhooks-empty")).toBeVisible();
    // The list says what went, and that line has the focus (it fell to the page's top).
    await expect(page.getByTestId("done-notice")).toHaveText("Deleted “Checkout alerts”.");
    await expect(page.getByTestId("done-notice")).toBeFocused();
  } finally {
    await rx.close();
  }
});

test("a workspace without webhooks in its plan is told which plans have them", async ({ page }, testInfo) => {
  await newWorkspace(page, "HooksFree", []);
  // While the webhooks are being read, the page does not yet know whether the plan has them: it shows neither the
  // New webhook form (it once did, then swapped it for the plan's refusal) nor the refusal.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const hold = async (route: Parameters<Parameters<typeof page.route>[1]>[0]) => {
    if (route.request().url().includes("webhooks.list")) await held;
    await route.continue();
  };
  await page.route("**/api/trpc/**", hold);
  await page.goto("/dashboard/webhooks");
  await expect(page.getByRole("status").filter({ hasText: "Loading webhooks…" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "New webhook" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create webhook" })).toHaveCount(0);
  release();
  await expect(page.getByTestId("plan-gate")).toContainText("Suite Agency or Lookups Growth");
  await expect(page.getByRole("heading", { name: "New webhook" })).toHaveCount(0);
  await page.unroute("**/api/trpc/**", hold);
  await snap(page, testInfo, "webhooks-free");
});

test("a delivery the worker pauses is an event said by the webhook's name and address, not its id", async ({
  page,
}, testInfo) => {
  const key = await newWorkspace(page, "Hook events", ["suite_agency"]);
  const rx = await startReceiver();
  const url = rx.url;
  try {
    const created = await page.request.post("/v1/webhooks", {
      headers: { authorization: `Bearer ${key}` },
      data: { name: "Fraud alerts", url, event_types: ["high_risk_assessment"] },
    });
    expect(created.status()).toBe(200);
    const hook = (await created.json()) as { id: string };
    // The plan loses webhooks while a delivery waits: the worker pauses it and records the event.
    await givePlan(page, ["suite_business"]);
    await asOperator(page, async (client, s, ws) => {
      await client.query(
        `INSERT INTO "${s}"."WebhookDelivery" (id, "webhookId", "workspaceId", "eventType", "requestId", payload, status, "nextAttemptAt")
         VALUES ($1, $2, $3, 'high_risk_assessment', 'req_pause_event', '{}'::jsonb, 'pending', now())`,
        [`msg_${randomBytes(6).toString("hex")}`, hook.id, ws],
      );
    });
    await page.goto("/dashboard/events");
    const row = page.locator('[data-testid="event-row"][data-type="webhook.delivery_paused"]');
    await expect(async () => {
      await page.reload();
      await expect(row).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(row).toContainText("Webhook delivery paused");
    await expect(row).toContainText(`Webhook “Fraud alerts” to ${url}`);
    await expect(row).not.toContainText(hook.id);
    // The webhook's creation, made with the API key, names the key by its name, not its id (key_…).
    const createdRow = page.locator('[data-testid="event-row"][data-type="audit.webhook.created"]');
    await expect(createdRow).toContainText(/Webhook Fraud alerts, by the API key “Default key” \(svc_live_[\w-]+…\)/);
    await expect(page.getByTestId("events-list")).not.toContainText(/\bkey_\w/);
    await snap(page, testInfo, "events-webhook-paused-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    await snap(page, testInfo, "events-webhook-paused-390");
  } finally {
    await rx.close();
  }
});

test("a webhook list that could not be read says so at once with Retry, and Retry reads it", async ({
  page,
}, testInfo) => {
  await newWorkspace(page, "HooksRead", ["suite_agency"]);
  let reads = 0;
  const failList = failInBatch(
    ["webhooks.list"],
    unavailable("The webhooks could not be read; try again shortly."),
    async () => void reads++,
  );
  await page.route("**/api/trpc/**", failList);
  await page.goto("/dashboard/webhooks");
  const failed = page.getByTestId("webhooks-read-failed");
  // One read, no retries behind "Loading webhooks…": the failure is said as soon as it comes.
  await expect(failed).toHaveText("The webhooks could not be read. Retry", { timeout: 3_000 });
  await expect(page.getByText("Loading webhooks…")).toHaveCount(0);
  expect(reads).toBe(1);
  await expect(page.getByTestId("webhooks-empty")).toHaveCount(0);
  await snap(page, testInfo, "webhooks-read-failed-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await snap(page, testInfo, "webhooks-read-failed-390");
  await page.unroute("**/api/trpc/**", failList);
  await failed.getByRole("button", { name: "Retry" }).click();
  await expect(failed).toHaveCount(0);
  await expect(page.getByTestId("webhooks-empty")).toBeVisible();
});
