// The audit trail: every key, webhook and rule change is an `audit.<resource>.<action>` event with its actor (the
// API key, the signed-in user, the operator), IP and user agent where there is one, the target, before and after,
// and never a secret.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../server/admin/commands";
import { applyKeyLimit, createApiKey } from "../../server/keys/keys";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { startWebhookReceiver, type WebhookReceiver } from "../fakes/webhook-receiver";
import { createTestApp, type TestApp } from "../harness";
import { dashboardMutation, signedIn } from "./dashboard";

let app: TestApp;
let rx: WebhookReceiver;
const saved = { ...process.env };
beforeAll(async () => {
  process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
  // The requests below come "through" one proxy that reports the caller's address (server/http/origin.ts).
  process.env.SERVICE_TRUST_PROXY = "1";
  app = await createTestApp();
  rx = await startWebhookReceiver();
});
afterAll(async () => {
  await rx.close();
  process.env = saved;
});

const CLIENT = { "x-forwarded-for": "198.51.100.7", "user-agent": "audit-test/1.0" };

async function auditEvents(workspaceId: string, prefix = "audit.") {
  return app.db.event.findMany({
    where: { workspaceId, type: { startsWith: prefix } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

describe("webhook changes by an API key", () => {
  it("record audit.webhook.created, .updated and .deleted with the key as actor, before and after, and no secret", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const body = { name: "Fraud alerts", url: rx.url, event_types: ["high_risk_assessment"] };
    const created = await app.request("POST", "/v1/webhooks", { key: ws.apiKey, body, headers: CLIENT });
    expect(created.status).toBe(200);
    const id = created.body.id;
    const patched = await app.request("PATCH", `/v1/webhooks/${id}`, {
      key: ws.apiKey,
      body: { name: "Renamed" },
      headers: CLIENT,
    });
    expect(patched.status).toBe(200);
    expect((await app.request("DELETE", `/v1/webhooks/${id}`, { key: ws.apiKey, headers: CLIENT })).status).toBe(200);

    const events = await auditEvents(ws.workspaceId);
    expect(events.map((e) => e.type)).toEqual([
      "audit.webhook.created",
      "audit.webhook.updated",
      "audit.webhook.deleted",
    ]);
    const actor = { kind: "api_key", apiKeyId: ws.apiKeyId };
    const target = (label: string) => ({ kind: "webhook", id, label });
    const shown = (name: string) => ({ name, url: rx.url, event_types: ["high_risk_assessment"] });
    expect(events[0]).toMatchObject({
      actor: `api_key:${ws.apiKeyId}`,
      ip: "198.51.100.7",
      requestId: created.headers.get("x-request-id"),
    });
    expect(events[0].data).toEqual({
      actor,
      target: target("Fraud alerts"),
      before: null,
      after: shown("Fraud alerts"),
      ip: "198.51.100.7",
      user_agent: "audit-test/1.0",
    });
    expect(events[1].data).toMatchObject({
      actor,
      target: target("Renamed"),
      before: shown("Fraud alerts"),
      after: shown("Renamed"),
    });
    expect(events[2].data).toMatchObject({ actor, target: target("Renamed"), before: shown("Renamed"), after: null });

    const everything = JSON.stringify(await app.db.event.findMany({ where: { workspaceId: ws.workspaceId } }));
    expect(everything).not.toContain(created.body.secret);
    expect(everything).not.toContain(created.body.secret.slice("whsec_".length));
  });

  it("a refused change records nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const bad = await app.request("PATCH", "/v1/webhooks/wh_doesnotexist", { key: ws.apiKey, body: { name: "x" } });
    expect(bad.status).toBe(404);
    expect(await auditEvents(ws.workspaceId)).toEqual([]);
  });
});

describe("rule changes by an API key", () => {
  it("record audit.rule.created, .updated and .deleted with the whole rule before and after, findable by rule id", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const rule = {
      name: "Block XX",
      action: "block",
      priority: 5,
      conditions: [{ field: "country", op: "eq", value: "KP" }],
    };
    const created = await app.request("POST", "/v1/rules", { key: ws.apiKey, body: rule });
    expect(created.status).toBe(200);
    const id = created.body.id;
    await app.request("PATCH", `/v1/rules/${id}`, { key: ws.apiKey, body: { action: "review", enabled: false } });
    await app.request("DELETE", `/v1/rules/${id}`, { key: ws.apiKey });

    const found = await app.request("GET", `/v1/events?query=${id}&type=audit.rule.`, { key: ws.apiKey });
    expect(found.status).toBe(200);
    expect(found.body.items.map((e: any) => [e.type, e.actor, e.rule])).toEqual([
      ["audit.rule.deleted", `api_key:${ws.apiKeyId}`, id],
      ["audit.rule.updated", `api_key:${ws.apiKeyId}`, id],
      ["audit.rule.created", `api_key:${ws.apiKeyId}`, id],
    ]);
    const full = { name: "Block XX", action: "block", priority: 5, enabled: true, conditions: rule.conditions };
    const [deleted, updated, createdEvent] = found.body.items.map((e: any) => e.data);
    expect(createdEvent).toMatchObject({ target: { kind: "rule", id, label: "Block XX" }, before: null, after: full });
    expect(updated).toMatchObject({ before: full, after: { ...full, action: "review", enabled: false } });
    expect(deleted).toMatchObject({ before: { ...full, action: "review", enabled: false }, after: null });
  });
});

describe("key changes by a signed-in owner", () => {
  it("record audit.key.created and .revoked with the user's id, email, IP and user agent, and never the key", async () => {
    const user = await signedIn(app.db, "owner@audit.test");
    const ws = await createWorkspace(app.db, {
      name: "audited",
      plans: ["suite_business"],
      ownerEmail: user.email,
      ownerUserId: user.userId,
    });
    const headers = { "x-service-workspace": ws.workspaceId, ...CLIENT };
    const created = await dashboardMutation("account.createKey", { name: "ci" }, user, headers);
    expect(created.status).toBe(200);
    const { key, plaintext } = created.body.result.data;
    expect((await dashboardMutation("account.revokeKey", { keyId: key.id }, user, headers)).status).toBe(200);

    const events = await auditEvents(ws.workspaceId, "audit.key.");
    expect(events.map((e) => [e.type, e.actor, e.email, e.ip])).toEqual([
      ["audit.key.created", `user:${user.userId}`, "owner@audit.test", "198.51.100.7"],
      ["audit.key.revoked", `user:${user.userId}`, "owner@audit.test", "198.51.100.7"],
    ]);
    const label = `ci (${key.prefix}…)`;
    expect(events[0].data).toEqual({
      actor: { kind: "user", userId: user.userId, email: "owner@audit.test" },
      target: { kind: "api_key", id: key.id, label },
      before: null,
      after: { name: "ci", prefix: key.prefix, status: "active" },
      ip: "198.51.100.7",
      user_agent: "audit-test/1.0",
    });
    expect(events[1].data).toMatchObject({
      target: { kind: "api_key", id: key.id, label },
      before: { status: "active" },
      after: { status: "revoked" },
    });
    expect(JSON.stringify(events)).not.toContain(plaintext);
  });

  it("a workspace created from the dashboard audits its first key with the user as actor; without an actor nothing is invented", async () => {
    const user = await signedIn(app.db, "founder@audit.test");
    const res = await dashboardMutation("account.createWorkspace", { name: "New shop" }, user, CLIENT);
    expect(res.status).toBe(200);
    const { workspaceId, apiKey } = res.body.result.data;
    const events = await auditEvents(workspaceId);
    expect(events.map((e) => [e.type, e.actor, e.email, e.ip])).toEqual([
      ["audit.key.created", `user:${user.userId}`, "founder@audit.test", "198.51.100.7"],
    ]);
    expect(JSON.stringify(events)).not.toContain(apiKey);
    const quiet = await createWorkspace(app.db, { name: "seeded", plans: ["free"] });
    expect(await auditEvents(quiet.workspaceId)).toEqual([]);
  });

  it("record rule changes made from the dashboard with the user as actor", async () => {
    const user = await signedIn(app.db, "rules@audit.test");
    const ws = await createWorkspace(app.db, {
      name: "rules",
      plans: ["suite_starter"],
      ownerEmail: user.email,
      ownerUserId: user.userId,
    });
    const res = await dashboardMutation(
      "rules.create",
      { name: "Review", action: "review", conditions: [{ field: "email_domain", op: "eq", value: "example.com" }] },
      user,
      { "x-service-workspace": ws.workspaceId },
    );
    expect(res.status).toBe(200);
    const [event] = await auditEvents(ws.workspaceId);
    expect(event).toMatchObject({
      type: "audit.rule.created",
      actor: `user:${user.userId}`,
      rule: res.body.result.data.id,
    });
  });
});

describe("operator and plan-driven key changes", () => {
  it("admin key create and key revoke record actor operator", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const created = await runAdminCommand(app.db, ["key", "create", "--workspace", ws.workspaceId, "--name", "ops"]);
    const { keyId, apiKey } = created.result as { keyId: string; apiKey: string };
    await runAdminCommand(app.db, ["key", "revoke", "--key", keyId]);
    const events = await auditEvents(ws.workspaceId, "audit.key.");
    expect(events.map((e) => [e.type, e.actor, e.ip])).toEqual([
      ["audit.key.created", "operator", null],
      ["audit.key.revoked", "operator", null],
    ]);
    expect(events[1].data).toMatchObject({ actor: { kind: "operator", command: `key revoke --key ${keyId}` } });
    expect(JSON.stringify(events)).not.toContain(apiKey);
  });

  it("a downgrade records audit.key.paused per paused key and an upgrade audit.key.resumed, with the plan change's actor", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const second = await createApiKey(app.db, { workspaceId: ws.workspaceId, name: "second" });
    const third = await createApiKey(app.db, { workspaceId: ws.workspaceId, name: "third" });
    await runAdminCommand(app.db, ["plan", "set", "--workspace", ws.workspaceId, "--plan", "free"]);
    const paused = await auditEvents(ws.workspaceId, "audit.key.paused");
    // One transaction writes both, so they share a timestamp: compare without order.
    expect(new Set(paused.map((e) => (e.data as any).target.id))).toEqual(new Set([second.key.id, third.key.id]));
    expect(paused.map((e) => e.actor)).toEqual(["operator", "operator"]);
    expect(
      paused.every(
        (e) =>
          JSON.stringify((e.data as any).before) === '{"status":"active"}' &&
          JSON.stringify((e.data as any).after) === '{"status":"paused"}',
      ),
    ).toBe(true);

    // A plan change with a Stripe event as actor (applyKeyLimit's optional actor), resuming both.
    await app.db.subscription.create({
      data: {
        id: `sub_${ws.workspaceId}`,
        workspaceId: ws.workspaceId,
        plan: "suite_business",
        status: "active",
        source: "stripe",
      },
    });
    const result = await applyKeyLimit(app.db, ws.workspaceId, { actor: { kind: "stripe", eventId: "evt_test_1" } });
    expect(result.paused).toEqual([]);
    const resumed = await auditEvents(ws.workspaceId, "audit.key.resumed");
    expect(resumed.map((e) => e.actor)).toEqual(["stripe:evt_test_1", "stripe:evt_test_1"]);
    expect(new Set(resumed.map((e) => (e.data as any).target.id))).toEqual(new Set([second.key.id, third.key.id]));

    // Applying the same limit again changes nothing and records nothing.
    await applyKeyLimit(app.db, ws.workspaceId, { actor: { kind: "operator" } });
    expect(await auditEvents(ws.workspaceId, "audit.key.")).toHaveLength(4);
  });
});
