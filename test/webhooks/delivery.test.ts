// Delivery end to end: enqueue -> worker -> a real receiver on 127.0.0.1, with the Standard Webhooks signature
// recomputed here, retries on the backoff schedule, pause after a downgrade, and deletion stopping deliveries.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventSummary, type EventRecord } from "../../app/dashboard/events/describe";
import { enqueueHighRiskAssessment } from "../../server/webhooks/enqueue";
import { RETRY_DELAYS_MS } from "../../server/webhooks/schedule";
import { runWebhookDeliveriesOnce } from "../../server/webhooks/worker";
import { setPlans } from "../../server/workspaces/workspaces";
import { startWebhookReceiver, type WebhookReceiver } from "../fakes/webhook-receiver";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
const saved = { ...process.env };
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
  app = await createTestApp();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  process.env = saved;
});

const RESULT = { risk_level: "high", decision: "block", score: 91, signals: [{ code: "tor_exit", weight: 40 }] };

/** A fresh workspace with one webhook pointing at a fresh receiver, so tests never see each other's deliveries. */
async function setup(plan = "suite_agency") {
  const rx = await startWebhookReceiver();
  receivers.push(rx);
  const ws = await app.seedWorkspace({ plans: [plan] });
  const hook = (
    await app.request("POST", "/v1/webhooks", {
      key: ws.apiKey,
      body: { name: "alerts", url: rx.url, event_types: ["high_risk_assessment"] },
    })
  ).body;
  return { rx, ws, hook };
}

const row = (webhookId: string) => app.db.webhookDelivery.findFirstOrThrow({ where: { webhookId } });

describe("webhook delivery", () => {
  it("delivers a high-risk assessment with a verifiable Standard Webhooks signature", async () => {
    const { rx, ws, hook } = await setup();
    expect(
      await enqueueHighRiskAssessment(app.db, { workspaceId: ws.workspaceId, requestId: "req_sig", payload: RESULT }),
    ).toBe(1);
    await runWebhookDeliveriesOnce(app.db);
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0];
    expect(got.method).toBe("POST");
    expect(got.headers["content-type"]).toBe("application/json");
    const id = String(got.headers["webhook-id"]);
    const ts = String(got.headers["webhook-timestamp"]);
    expect(id).toMatch(/^msg_/);
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(30);
    const key = Buffer.from(hook.secret.slice("whsec_".length), "base64");
    const expected = "v1," + createHmac("sha256", key).update(`${id}.${ts}.${got.body}`).digest("base64");
    expect(got.headers["webhook-signature"]).toBe(expected);
    expect(JSON.parse(got.body)).toEqual({
      type: "high_risk_assessment",
      request_id: "req_sig",
      workspace_id: ws.workspaceId,
      created_at: expect.any(String),
      data: RESULT,
    });

    const log = await app.request("GET", `/v1/webhooks/${hook.id}/deliveries`, { key: ws.apiKey });
    expect(log.status).toBe(200);
    expect(log.headers.get("x-service-quota-used")).toBeNull();
    expect(log.body).toEqual({
      items: [
        {
          id,
          event_type: "high_risk_assessment",
          request_id: "req_sig",
          status: "delivered",
          attempts: 1,
          last_status: 204,
          last_error: null,
          next_attempt_at: null,
          created_at: expect.any(String),
          delivered_at: expect.any(String),
          payload: expect.objectContaining({ type: "high_risk_assessment", request_id: "req_sig" }),
        },
      ],
      nextCursor: null,
      next_cursor: null,
    });
  });

  it("pages the delivery log by cursor and refuses one that names none of this webhook's deliveries", async () => {
    const { ws, hook } = await setup();
    const { hook: other } = await setup();
    for (const requestId of ["req_page_1", "req_page_2", "req_page_3"])
      await enqueueHighRiskAssessment(app.db, { workspaceId: ws.workspaceId, requestId, payload: RESULT });
    const log = (query: string) => app.request("GET", `/v1/webhooks/${hook.id}/deliveries${query}`, { key: ws.apiKey });
    const first = await log("?limit=2");
    expect(first.body.items).toHaveLength(2);
    const second = await log(`?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const seen = [...first.body.items, ...second.body.items].map((d: { request_id: string }) => d.request_id);
    expect(seen.sort()).toEqual(["req_page_1", "req_page_2", "req_page_3"]);
    // Another webhook's delivery (another workspace's, then this one's), a made-up id and a delivery since deleted:
    // 400, not an empty page.
    await enqueueHighRiskAssessment(app.db, {
      workspaceId: (await app.db.webhook.findUniqueOrThrow({ where: { id: other.id } })).workspaceId,
      requestId: "req_other",
      payload: RESULT,
    });
    const foreign = (await row(other.id)).id;
    // A second webhook of the same workspace, with a delivery of its own.
    const sibling = (
      await app.request("POST", "/v1/webhooks", {
        key: ws.apiKey,
        body: { name: "sibling", url: "http://127.0.0.1:9/hook", event_types: ["high_risk_assessment"] },
      })
    ).body;
    await enqueueHighRiskAssessment(app.db, { workspaceId: ws.workspaceId, requestId: "req_both", payload: RESULT });
    const siblings = (await row(sibling.id)).id;
    const gone = first.body.items[1].id as string;
    await app.db.webhookDelivery.delete({ where: { id: gone } });
    for (const cursor of [foreign, siblings, "msg_made_up", gone]) {
      const res = await log(`?cursor=${cursor}`);
      expect(res.status, cursor).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
      expect(res.body.error.message).toMatch(
        /^cursor: unknown cursor \(its item may have been deleted since\); use the next_cursor of the previous page/,
      );
    }
  });

  it("queues nothing for a workspace without webhooks and never rejects, even on a payload it cannot store", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    expect(
      await enqueueHighRiskAssessment(app.db, { workspaceId: ws.workspaceId, requestId: "req_none", payload: RESULT }),
    ).toBe(0);
    const { ws: hooked } = await setup();
    await expect(
      enqueueHighRiskAssessment(app.db, { workspaceId: hooked.workspaceId, requestId: "req_bad", payload: { n: 1n } }),
    ).resolves.toBe(0);
  });

  it("retries a 500 after the backoff delay, with the same webhook-id, then records success", async () => {
    const { rx, ws, hook } = await setup();
    rx.respondWith(500);
    await enqueueHighRiskAssessment(app.db, { workspaceId: ws.workspaceId, requestId: "req_retry", payload: RESULT });
    const t0 = new Date();
    await runWebhookDeliveriesOnce(app.db, t0);
    let d = await row(hook.id);
    expect(d).toMatchObject({
      status: "pending",
      attempts: 1,
      lastStatus: 500,
      lastError: "receiver answered HTTP 500",
    });
    expect(d.nextAttemptAt.getTime()).toBe(t0.getTime() + 60_000);

    await runWebhookDeliveriesOnce(app.db, new Date(t0.getTime() + 59_000));
    expect(rx.received).toHaveLength(1);
    await runWebhookDeliveriesOnce(app.db, new Date(t0.getTime() + 60_000));
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1].headers["webhook-id"]).toBe(rx.received[0].headers["webhook-id"]);
    expect(rx.received[1].body).toBe(rx.received[0].body);
    d = await row(hook.id);
    expect(d).toMatchObject({ status: "delivered", attempts: 2, lastStatus: 204, lastError: null });
  });

  it("follows the exponential schedule for about a day, then marks the delivery failed and records an event", async () => {
    const { rx, ws, hook } = await setup();
    rx.respondWith(...Array(20).fill(503));
    await enqueueHighRiskAssessment(app.db, { workspaceId: ws.workspaceId, requestId: "req_fail", payload: RESULT });
    let now = new Date();
    const gaps: number[] = [];
    for (let i = 0; i < RETRY_DELAYS_MS.length + 1; i++) {
      await runWebhookDeliveriesOnce(app.db, now);
      const d = await row(hook.id);
      if (d.status !== "pending") break;
      gaps.push(d.nextAttemptAt.getTime() - now.getTime());
      now = d.nextAttemptAt;
    }
    expect(gaps).toEqual([60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(gaps.reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3600_000);
    expect(rx.received).toHaveLength(8);
    expect(await row(hook.id)).toMatchObject({ status: "failed", attempts: 8, lastStatus: 503 });
    await runWebhookDeliveriesOnce(app.db, new Date(now.getTime() + 48 * 3600_000));
    expect(rx.received).toHaveLength(8);
    const events = await app.request("GET", "/v1/events?query=req_fail", { key: ws.apiKey });
    expect(events.body.items.map((e: any) => e.type)).toEqual(["webhook.delivery_failed"]);
    // The event names the webhook as the workspace knows it, and the Events page says it so, not by its id.
    const [failed] = events.body.items as EventRecord[];
    expect(failed.data).toMatchObject({ webhook_id: hook.id, webhook_name: "alerts", webhook_url: rx.url });
    expect(eventSummary(failed)).toBe(`Webhook “alerts” to ${rx.url}: the receiver answered 503`);
  });

  it("pauses deliveries after a downgrade removes webhooks and never sends them while downgraded", async () => {
    const { rx, ws, hook } = await setup();
    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["suite_business"] });
    await enqueueHighRiskAssessment(app.db, { workspaceId: ws.workspaceId, requestId: "req_paused", payload: RESULT });
    const t0 = new Date();
    expect((await runWebhookDeliveriesOnce(app.db, t0)).paused).toBe(1);
    expect(await row(hook.id)).toMatchObject({ status: "paused", attempts: 0 });
    await runWebhookDeliveriesOnce(app.db, new Date(t0.getTime() + 3600_000));
    expect(rx.received).toHaveLength(0);
    expect((await row(hook.id)).status).toBe("paused");
    const paused = await app.request("GET", "/v1/events?query=req_paused", { key: ws.apiKey });
    expect(paused.body.items.map((e: EventRecord) => [e.type, eventSummary(e)])).toEqual([
      ["webhook.delivery_paused", `Webhook “alerts” to ${rx.url}`],
    ]);

    // The plan returns within the retry window: the paused delivery resumes.
    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["suite_agency"] });
    await runWebhookDeliveriesOnce(app.db, new Date(t0.getTime() + 2 * 3600_000));
    expect(rx.received).toHaveLength(1);
    expect((await row(hook.id)).status).toBe("delivered");
  });

  it("stops retrying once the webhook is deleted", async () => {
    const { rx, ws, hook } = await setup();
    rx.respondWith(500);
    await enqueueHighRiskAssessment(app.db, { workspaceId: ws.workspaceId, requestId: "req_deleted", payload: RESULT });
    const t0 = new Date();
    await runWebhookDeliveriesOnce(app.db, t0);
    expect(rx.received).toHaveLength(1);
    expect((await app.request("DELETE", `/v1/webhooks/${hook.id}`, { key: ws.apiKey })).status).toBe(200);
    expect(
      await enqueueHighRiskAssessment(app.db, { workspaceId: ws.workspaceId, requestId: "req_after", payload: RESULT }),
    ).toBe(0);
    await runWebhookDeliveriesOnce(app.db, new Date(t0.getTime() + 3600_000));
    expect(rx.received).toHaveLength(1);
    expect(await app.db.webhookDelivery.count({ where: { webhookId: hook.id } })).toBe(0);
  });

  it("re-vets the receiver at send time and does not connect to a refused address", async () => {
    const { rx, ws, hook } = await setup();
    // As if DNS had changed after registration: the stored URL now points at the metadata address.
    await app.db.webhook.update({ where: { id: hook.id }, data: { url: "http://169.254.169.254/hook" } });
    await enqueueHighRiskAssessment(app.db, { workspaceId: ws.workspaceId, requestId: "req_ssrf", payload: RESULT });
    await runWebhookDeliveriesOnce(app.db);
    const d = await row(hook.id);
    expect(d).toMatchObject({ status: "pending", attempts: 1, lastStatus: null });
    expect(d.lastError).toMatch(/^TARGET_FORBIDDEN: /);
    expect(rx.received).toHaveLength(0);
  });

  it("sends each delivery once when several workers run at the same time", async () => {
    const { rx, ws } = await setup();
    for (let i = 0; i < 5; i++)
      await enqueueHighRiskAssessment(app.db, { workspaceId: ws.workspaceId, requestId: `req_c${i}`, payload: RESULT });
    const now = new Date();
    await Promise.all([
      runWebhookDeliveriesOnce(app.db, now),
      runWebhookDeliveriesOnce(app.db, now),
      runWebhookDeliveriesOnce(app.db, now),
    ]);
    expect(rx.received.map((r) => JSON.parse(r.body).request_id).sort()).toEqual([
      "req_c0",
      "req_c1",
      "req_c2",
      "req_c3",
      "req_c4",
    ]);
  });
});
