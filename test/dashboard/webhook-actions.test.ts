// Test events and redelivery (POST /v1/webhooks/{id}/test, POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver
// and the same procedures through the dashboard's tRPC endpoint): queued like real deliveries, signed and sent by the worker,
// visible in the delivery log with their payload; owners and members alike; Free refused; tenants isolated.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWebhookDeliveriesOnce } from "../../server/webhooks/worker";
import { startWebhookReceiver, type WebhookReceiver } from "../fakes/webhook-receiver";
import { createTestApp, type TestApp } from "../harness";
import { call, ownerAndMember } from "./call";

let app: TestApp;
let rx: WebhookReceiver;
const saved = { ...process.env };
beforeAll(async () => {
  process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
  app = await createTestApp();
  rx = await startWebhookReceiver();
});
afterAll(async () => {
  await rx.close();
  process.env = saved;
});

async function hookOf(key: string) {
  const res = await app.request("POST", "/v1/webhooks", {
    key,
    body: { name: "Alerts", url: rx.url, event_types: ["high_risk_assessment"] },
  });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

describe("POST /v1/webhooks/{id}/test", () => {
  it("queues a signed test event that the worker delivers, shown in the log with its payload, at no unit cost", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const id = await hookOf(ws.apiKey);
    const res = await app.request("POST", `/v1/webhooks/${id}/test`, { key: ws.apiKey, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      event_type: "high_risk_assessment",
      status: "pending",
      attempts: 0,
      last_status: null,
    });
    expect(res.body.payload).toMatchObject({
      type: "high_risk_assessment",
      workspace_id: ws.workspaceId,
      test: true,
      data: { test: true, risk_level: "critical" },
    });
    expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
    expect(await app.used(ws.workspaceId)).toBe(0);

    const before = rx.received.length;
    await runWebhookDeliveriesOnce(app.db);
    const got = rx.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0].headers["webhook-id"]).toBe(res.body.id);
    expect(JSON.parse(got[0].body)).toMatchObject({ type: "high_risk_assessment", test: true });

    const log = await app.request("GET", `/v1/webhooks/${id}/deliveries`, { key: ws.apiKey });
    expect(log.body.items[0]).toMatchObject({
      id: res.body.id,
      status: "delivered",
      attempts: 1,
      last_status: 204,
      payload: { test: true },
    });
  });

  it("is 404 NOT_FOUND for another workspace's webhook and 403 CAPABILITY_REQUIRED without webhooks in the plan", async () => {
    const a = await app.seedWorkspace({ plans: ["suite_agency"] });
    const b = await app.seedWorkspace({ plans: ["suite_agency"] });
    const id = await hookOf(a.apiKey);
    const other = await app.request("POST", `/v1/webhooks/${id}/test`, { key: b.apiKey, body: {} });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
    const free = await app.seedWorkspace({ plans: ["free"] });
    const refused = await app.request("POST", `/v1/webhooks/${id}/test`, { key: free.apiKey, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("CAPABILITY_REQUIRED");
    expect(await app.db.webhookDelivery.count({ where: { workspaceId: b.workspaceId } })).toBe(0);
  });
});

describe("POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver", () => {
  it("sends a failed delivery's body again as a new delivery and leaves the original as it was", async () => {
    const ws = await app.seedWorkspace({ plans: ["lookups_growth"] });
    const id = await hookOf(ws.apiKey);
    const first = (await app.request("POST", `/v1/webhooks/${id}/test`, { key: ws.apiKey, body: {} })).body;
    rx.respondWith(500);
    await runWebhookDeliveriesOnce(app.db);
    const pending = await app.request("POST", `/v1/webhooks/${id}/deliveries/${first.id}/redeliver`, {
      key: ws.apiKey,
      body: {},
    });
    expect(pending.status).toBe(409);
    expect(pending.body.error.code).toBe("CONFLICT");

    await app.db.webhookDelivery.update({ where: { id: first.id }, data: { status: "failed" } });
    const again = await app.request("POST", `/v1/webhooks/${id}/deliveries/${first.id}/redeliver`, {
      key: ws.apiKey,
      body: {},
    });
    expect(again.status).toBe(200);
    expect(again.body.id).not.toBe(first.id);
    expect(again.body).toMatchObject({ status: "pending", request_id: first.request_id, payload: first.payload });
    await runWebhookDeliveriesOnce(app.db);
    const log = (await app.request("GET", `/v1/webhooks/${id}/deliveries`, { key: ws.apiKey })).body.items;
    expect(log.map((d: any) => [d.id, d.status, d.last_status])).toEqual([
      [again.body.id, "delivered", 204],
      [first.id, "failed", 500],
    ]);
    const missing = await app.request("POST", `/v1/webhooks/${id}/deliveries/msg_nope/redeliver`, {
      key: ws.apiKey,
      body: {},
    });
    expect(missing.status).toBe(404);
  });
});

describe("through the dashboard's tRPC endpoint", () => {
  it("lets a member (not owner) send a test event and redeliver it; a Free workspace is told which plans have webhooks", async () => {
    const { owner, member } = await ownerAndMember(app.db, "wh", ["suite_agency"]);
    const created = await call(
      owner,
      "webhooks.create",
      { name: "Dashboard", url: rx.url, event_types: ["high_risk_assessment"] },
      "mutation",
    );
    expect(created.status).toBe(200);
    const test = await call(member, "webhooks.sendTest", { id: created.data.id }, "mutation");
    expect(test).toMatchObject({ status: 200, data: { status: "pending", payload: { test: true } } });
    await runWebhookDeliveriesOnce(app.db);
    const redo = await call(
      member,
      "webhooks.redeliver",
      { id: created.data.id, delivery_id: test.data.id },
      "mutation",
    );
    expect(redo).toMatchObject({ status: 200, data: { status: "pending" } });

    const free = await ownerAndMember(app.db, "whfree", ["free"]);
    const refused = await call(free.owner, "webhooks.sendTest", { id: created.data.id }, "mutation");
    expect(refused).toMatchObject({
      status: 403,
      code: "CAPABILITY_REQUIRED",
      message: "Webhooks need the Suite Agency or Lookups Growth plan.",
    });
  });
});
