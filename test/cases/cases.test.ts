// The review queue (issue 24, item 4): a review or challenge decision opens a case in the assessment's own write;
// resolving it labels the assessment (what backtests and learned weights read), may add a value to a list, is an
// audit event and queues a `case.resolved` webhook. Isolation between workspaces, the `full` capability, both stores.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrationSql } from "../assessment/seeded-events";
import { CHROME_UA, keyedCalls, useAssessmentApp } from "../assessment/setup";
import { startWebhookReceiver, type WebhookReceiver } from "../fakes/webhook-receiver";

const { app } = useAssessmentApp();
let rx: WebhookReceiver;
beforeAll(async () => {
  process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
  rx = await startWebhookReceiver();
});
afterAll(async () => {
  delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS;
  await rx.close();
});

const { req, ok } = keyedCalls(app);

describe("/v1/cases", () => {
  it("a review rule opens a case; resolving it as fraud labels the assessment for the backtest and weights, lists the user, audits and notifies", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    const key = ws.apiKey;
    const rule = await ok(key, "POST", "/v1/rules", {
      priority: 0,
      name: "Review logins from new countries",
      action: "review",
      expression: 'event == "login" && user_id == "mallory"',
    });
    const hook = await ok(key, "POST", "/v1/webhooks", { name: "Cases", url: rx.url, event_types: ["case.resolved"] });
    const list = await ok(key, "POST", "/v1/lists", { name: "bad_users", kind: "user" });

    const login = await ok(key, "POST", "/v1/assess", {
      event: "login",
      ip: "91.0.0.1",
      user_id: "mallory",
      device_id: "dev-9",
      user_agent: CHROME_UA,
    });
    expect(login).toMatchObject({ decision: "review", decided_by: "rule" });
    // An allowed assessment opens nothing.
    const allowed = await ok(key, "POST", "/v1/assess", { event: "login", ip: "91.0.0.1", user_agent: CHROME_UA });
    expect(allowed.decision).toBe("allow");

    const queue = await ok(key, "GET", "/v1/cases");
    expect(queue.counts).toMatchObject({ open: 1, oldest_open_minutes: 0 });
    expect(queue.items).toHaveLength(1);
    const c = queue.items[0];
    expect(c).toMatchObject({
      request_id: login.request_id,
      decision: "review",
      rule: rule.id,
      user_id: "mallory",
      email: null,
      ip: "91.0.0.1",
      device_id: "dev-9",
      status: "open",
      assignee: null,
      resolution: null,
    });
    expect(c.id).toMatch(/^case_/);
    expect((await ok(key, "GET", `/v1/cases?decision=challenge`)).items).toEqual([]);
    expect((await ok(key, "GET", `/v1/cases?rule=${rule.id}`)).items).toHaveLength(1);
    expect((await ok(key, "GET", `/v1/cases?min_age_minutes=60`)).items).toEqual([]);

    const detail = await ok(key, "GET", `/v1/cases/${c.id}`);
    expect(detail.assessment).toMatchObject({ event: "login", rules: [rule.id] });
    expect(detail.assessment.facts).toMatchObject({ "user.seen_before": false, "ip.country": "DE" });
    expect(detail.history).toEqual([
      expect.objectContaining({ request_id: login.request_id, status: "succeeded", country: "DE", decision: "review" }),
    ]);

    // Assigning: "me" needs a signed-in member; a stranger is refused; null unassigns.
    expect((await req(key, "POST", `/v1/cases/${c.id}/assign`, { assignee: "me" })).status).toBe(400);
    const stranger = await req(key, "POST", `/v1/cases/${c.id}/assign`, { assignee: "user_nobody" });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.message).toContain("is not the user id of a member of this workspace");
    // An API key has no way to a member's user id but the member's email address, as they were invited.
    const db = app().db;
    const userId = `usr_${ws.workspaceId.slice(-8).toLowerCase()}`;
    await db.user.create({ data: { id: userId, email: `rita-${userId}@example.com` } });
    await db.member.create({
      data: {
        id: `mem_${userId}`,
        workspaceId: ws.workspaceId,
        email: `rita-${userId}@example.com`,
        userId,
        role: "member",
      },
    });
    await db.member.create({
      data: {
        id: `mem_inv_${userId}`,
        workspaceId: ws.workspaceId,
        email: `ines-${userId}@example.com`,
        role: "member",
      },
    });
    const byEmail = await ok(key, "POST", `/v1/cases/${c.id}/assign`, { assignee: `Rita-${userId}@Example.com` });
    expect(byEmail.assignee).toBe(userId);
    expect((await ok(key, "POST", `/v1/cases/${c.id}/assign`, { assignee: userId })).assignee).toBe(userId);
    const invited = await req(key, "POST", `/v1/cases/${c.id}/assign`, { assignee: `ines-${userId}@example.com` });
    expect(invited.status).toBe(400);
    expect(invited.body.error.message).toContain("has not signed in yet");
    const outsider = await req(key, "POST", `/v1/cases/${c.id}/assign`, { assignee: "nobody@example.com" });
    expect(outsider.status).toBe(400);
    expect(outsider.body.error.message).toContain("nobody@example.com is not a member of this workspace");
    expect((await ok(key, "GET", `/v1/cases/${c.id}`)).assignee).toBe(userId);
    expect((await ok(key, "POST", `/v1/cases/${c.id}/assign`, { assignee: null })).assignee).toBeNull();

    // A value of the wrong kind is refused before anything is written.
    const wrongKind = await req(key, "POST", `/v1/cases/${c.id}/resolve`, {
      resolution: "fraud",
      add_to_list: { list_id: list.id, value: "ip" },
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.message).toBe(
      "add_to_list: an IP address cannot go into a list of kind user (it goes into a list of kind ip).",
    );
    expect((await ok(key, "GET", `/v1/cases/${c.id}`)).status).toBe("open");

    const resolved = await ok(key, "POST", `/v1/cases/${c.id}/resolve`, {
      resolution: "fraud",
      note: "Stolen password",
      add_to_list: { list_id: list.id, value: "user" },
    });
    expect(resolved).toMatchObject({ status: "resolved", resolution: "fraud", note: "Stolen password" });
    expect(resolved.resolved_by).toMatch(/^api_key:/);
    const again = await req(key, "POST", `/v1/cases/${c.id}/resolve`, { resolution: "legitimate" });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CONFLICT");

    expect((await ok(key, "GET", "/v1/cases")).counts.open).toBe(0);
    expect((await ok(key, "GET", "/v1/cases?status=resolved")).items.map((x: { id: string }) => x.id)).toEqual([c.id]);
    const items = await ok(key, "GET", `/v1/lists/${list.id}/items`);
    expect(items.items).toEqual([
      expect.objectContaining({ value: "mallory", note: "From case review of mallory: fraud" }),
    ]);

    // The label is the assessment's outcome: the backtest and the weights read it.
    const backtest = await ok(key, "POST", "/v1/rules/backtest", {
      action: "block",
      expression: 'user_id == "mallory"',
    });
    expect(backtest.labelled).toMatchObject({ fraud: 1, matched_fraud: 1 });
    const weights = await ok(key, "GET", "/v1/weights");
    expect(weights.labelled).toMatchObject({ total: 1, fraud: 1 });

    const events = await ok(key, "GET", "/v1/events?limit=100");
    const types = events.items.map((e: { type: string }) => e.type);
    expect(types).toContain("audit.case.resolved");
    expect(types).toContain("assessment.outcome");
    // The resolution's audit event names the case by its account, as a person knows it (not a request id).
    const audit = events.items.find((e: { type: string }) => e.type === "audit.case.resolved");
    expect(audit.data.target).toEqual({ kind: "case", id: c.id, label: "mallory" });
    const deliveries = await ok(key, "GET", `/v1/webhooks/${hook.id}/deliveries`);
    expect(deliveries.items).toEqual([expect.objectContaining({ event_type: "case.resolved" })]);
  });

  it("keeps the assessment's email beside its user_id; a list item the database refuses leaves the case open", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    const key = ws.apiKey;
    await ok(key, "POST", "/v1/rules", { name: "Review eve", action: "review", expression: 'user_id == "eve"' });
    const list = await ok(key, "POST", "/v1/lists", { name: "bad_emails", kind: "email" });
    const login = await ok(key, "POST", "/v1/assess", {
      event: "login",
      ip: "91.0.0.1",
      user_id: "eve",
      email: "eve@example.org",
      user_agent: CHROME_UA,
    });
    expect(login.decision).toBe("review");
    const [c] = (await ok(key, "GET", "/v1/cases")).items;
    expect(c).toMatchObject({ request_id: login.request_id, user_id: "eve", email: "eve@example.org" });

    const db = app().db;
    await db.$executeRawUnsafe(
      `CREATE OR REPLACE FUNCTION refuse_list_item() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`,
    );
    await db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_list_item BEFORE INSERT ON "NamedListItem" FOR EACH ROW EXECUTE FUNCTION refuse_list_item()`,
    );
    let refused: Awaited<ReturnType<typeof req>>;
    try {
      refused = await req(key, "POST", `/v1/cases/${c.id}/resolve`, {
        resolution: "fraud",
        add_to_list: { list_id: list.id, value: "email" },
      });
    } finally {
      await db.$executeRawUnsafe(`DROP TRIGGER refuse_list_item ON "NamedListItem"`);
    }
    expect(refused.status).toBe(500);
    // Nothing of the resolution is stored: the case is open, the assessment unlabelled, no audit event or webhook.
    expect((await ok(key, "GET", `/v1/cases/${c.id}`)).status).toBe("open");
    const types = (await ok(key, "GET", "/v1/events?limit=100")).items.map((e: { type: string }) => e.type);
    expect(types).not.toContain("audit.case.resolved");
    expect(types).not.toContain("assessment.outcome");
    expect((await ok(key, "GET", `/v1/lists/${list.id}/items`)).items).toEqual([]);

    await ok(key, "POST", `/v1/cases/${c.id}/resolve`, {
      resolution: "fraud",
      add_to_list: { list_id: list.id, value: "email" },
    });
    expect((await ok(key, "GET", `/v1/lists/${list.id}/items`)).items).toEqual([
      expect.objectContaining({ value: "eve@example.org", note: "From case review of eve: fraud" }),
    ]);
  });

  it("cases opened before the email column take it from their assessment (the migration's backfill)", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    const key = ws.apiKey;
    await ok(key, "POST", "/v1/rules", { name: "Review all", action: "review", expression: 'event == "login"' });
    const withEmail = { event: "login", ip: "91.0.0.1", user_id: "finn", email: "finn@example.org" };
    await ok(key, "POST", "/v1/assess", { ...withEmail, user_agent: CHROME_UA });
    await ok(key, "POST", "/v1/assess", { event: "login", ip: "91.0.0.1", user_id: "gus", user_agent: CHROME_UA });
    await app().db.$executeRawUnsafe(`UPDATE "ReviewCase" SET "email" = NULL WHERE "workspaceId" = $1`, ws.workspaceId);
    const emails = async () =>
      Object.fromEntries(
        (await ok(key, "GET", "/v1/cases")).items.map((c: { user_id: string; email: string | null }) => [
          c.user_id,
          c.email,
        ]),
      );
    expect(await emails()).toEqual({ finn: null, gus: null });
    await app().db.$executeRawUnsafe(migrationSql("_review_case_email_backfill"));
    expect(await emails()).toEqual({ finn: "finn@example.org", gus: null });
  });

  it("keeps every workspace's cases to itself, and needs the full capability", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    const other = await app().seedWorkspace({ plans: ["suite_agency"] });
    await ok(ws.apiKey, "POST", "/v1/rules", {
      priority: 0,
      name: "Challenge all",
      action: "challenge",
      expression: "true",
    });
    await ok(ws.apiKey, "POST", "/v1/assess", { event: "signup", ip: "91.0.0.1", email: "x@example.com" });
    const [c] = (await ok(ws.apiKey, "GET", "/v1/cases")).items;
    expect(c).toMatchObject({ decision: "challenge", email: "x@example.com", user_id: null });

    expect((await ok(other.apiKey, "GET", "/v1/cases")).items).toEqual([]);
    for (const [method, path, body] of [
      ["GET", `/v1/cases/${c.id}`, undefined],
      ["POST", `/v1/cases/${c.id}/assign`, { assignee: null }],
      ["POST", `/v1/cases/${c.id}/resolve`, { resolution: "legitimate" }],
    ] as const) {
      const res = await req(other.apiKey, method, path, body);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    expect((await ok(ws.apiKey, "GET", `/v1/cases/${c.id}`)).status).toBe("open");

    const free = await app().seedWorkspace({ plans: ["free"] });
    const refused = await req(free.apiKey, "GET", "/v1/cases");
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("CAPABILITY_REQUIRED");
  });

  it("pages the open queue oldest first with a cursor", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_agency"] });
    await ok(ws.apiKey, "POST", "/v1/rules", { priority: 0, name: "Review all", action: "review", expression: "true" });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (await ok(ws.apiKey, "POST", "/v1/assess", { event: "login", ip: "91.0.0.1", user_id: `u${i}` })).request_id,
      );
    const first = await ok(ws.apiKey, "GET", "/v1/cases?limit=2");
    expect(first.items.map((x: { request_id: string }) => x.request_id)).toEqual(ids.slice(0, 2));
    const second = await ok(ws.apiKey, "GET", `/v1/cases?limit=2&cursor=${first.next_cursor}`);
    expect(second).toMatchObject({ items: [{ request_id: ids[2] }], next_cursor: null, counts: { open: 3 } });
  });
});
