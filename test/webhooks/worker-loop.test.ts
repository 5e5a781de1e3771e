// The background worker started by the server: polls on its own, is idempotent, and can be stopped.
import { afterAll, beforeAll, expect, it } from "vitest";
import { enqueueHighRiskAssessment } from "../../server/webhooks/enqueue";
import { startWebhookWorker, stopWebhookWorker } from "../../server/webhooks/worker";
import { startWebhookReceiver, type WebhookReceiver } from "../fakes/webhook-receiver";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
let rx: WebhookReceiver;
const saved = { ...process.env };
beforeAll(async () => {
  process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
  process.env.SERVICE_WEBHOOK_POLL_MS = "50";
  app = await createTestApp();
  rx = await startWebhookReceiver();
});
afterAll(async () => {
  stopWebhookWorker();
  await rx.close();
  process.env = saved;
});

it("delivers queued events in the background, once even when started twice, and audits the webhook creation", async () => {
  const ws = await app.seedWorkspace({ plans: ["lookups_growth"] });
  const created = await app.request("POST", "/v1/webhooks", {
    key: ws.apiKey,
    body: { name: "bg", url: rx.url, event_types: ["high_risk_assessment"] },
  });
  expect(created.status).toBe(200);
  startWebhookWorker();
  startWebhookWorker();
  await enqueueHighRiskAssessment(app.db, {
    workspaceId: ws.workspaceId,
    requestId: "req_bg",
    payload: { risk_level: "critical" },
  });
  const deadline = Date.now() + 10_000;
  while (rx.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  await new Promise((r) => setTimeout(r, 300));
  expect(rx.received.map((r) => JSON.parse(r.body).request_id)).toEqual(["req_bg"]);

  const events = await app.request("GET", "/v1/events", { key: ws.apiKey });
  expect(events.body.items.map((e: any) => [e.type, e.requestId])).toContainEqual([
    "audit.webhook.created",
    created.headers.get("x-request-id"),
  ]);
});
