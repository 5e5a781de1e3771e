import { describe, expect, it } from "vitest";
import { CHROME_UA, CLEAN_IP, HEADLESS_UA, TOR_HOSTING_IP, useAssessmentApp } from "../assessment/setup";

const { app } = useAssessmentApp();

async function rule(key: string, body: Record<string, unknown>) {
  const res = await app().request("POST", "/v1/rules", { key, body: { priority: 0, ...body } });
  expect(res.status).toBe(200);
  return res.body as { id: string; name: string; action: string };
}

const assess = (key: string, body: unknown) => app().request("POST", "/v1/assess", { key, body });

describe("rules in assessments", () => {
  it("a block-country rule overrides a low score, is listed, and is recorded on the event", async () => {
    const ws = await app().seedWorkspace();
    const r = await rule(ws.apiKey, {
      name: "No US signups",
      action: "block",
      conditions: [
        { field: "country", op: "eq", value: "us" },
        { field: "event", op: "eq", value: "signup" },
      ],
    });
    const res = await assess(ws.apiKey, { event: "signup", ip: CLEAN_IP, user_agent: CHROME_UA });
    expect(res.body).toMatchObject({
      score: 0,
      risk_level: "low",
      decision: "block",
      decided_by: "rule",
      rules: [{ id: r.id, name: "No US signups", action: "block" }],
    });
    const login = await assess(ws.apiKey, { event: "login", ip: CLEAN_IP, user_agent: CHROME_UA });
    expect(login.body).toMatchObject({ decision: "allow", decided_by: "score", rules: [] });

    const events = await app().request("GET", `/v1/events?query=${r.id}`, { key: ws.apiKey });
    const assessed = events.body.items.filter((e: { type: string }) => e.type === "assessment");
    expect(assessed).toHaveLength(1);
    expect(assessed[0]).toMatchObject({
      requestId: res.body.request_id,
      rule: r.id,
      data: { decision: "block", rules: [r.id] },
    });
  });

  it("an allow rule on an email domain whitelists a critical request", async () => {
    const ws = await app().seedWorkspace();
    const r = await rule(ws.apiKey, {
      name: "QA inboxes",
      action: "allow",
      conditions: [{ field: "email_domain", op: "in", value: ["Mailinator.com"] }],
    });
    const res = await assess(ws.apiKey, {
      event: "signup",
      ip: TOR_HOSTING_IP,
      email: "qa@mailinator.com",
      user_agent: HEADLESS_UA,
    });
    expect(res.body).toMatchObject({
      score: 100,
      risk_level: "critical",
      decision: "allow",
      decided_by: "rule",
      rules: [{ id: r.id, action: "allow" }],
    });
  });

  it("all matching rules are listed in priority order and the first decides; disabled rules are skipped", async () => {
    const ws = await app().seedWorkspace();
    const late = await rule(ws.apiKey, {
      name: "late",
      action: "block",
      priority: 20,
      conditions: [{ field: "tor_exit", op: "eq", value: true }],
    });
    const early = await rule(ws.apiKey, {
      name: "early",
      action: "challenge",
      priority: 10,
      conditions: [{ field: "ip", op: "cidr", value: ["217.160.0.0/16"] }],
    });
    await rule(ws.apiKey, {
      name: "off",
      action: "allow",
      priority: 1,
      enabled: false,
      conditions: [{ field: "hosting", op: "eq", value: true }],
    });
    await rule(ws.apiKey, {
      name: "miss",
      action: "allow",
      priority: 2,
      conditions: [{ field: "score", op: "lt", value: 10 }],
    });
    const res = await assess(ws.apiKey, { event: "login", ip: TOR_HOSTING_IP, user_agent: CHROME_UA });
    expect(res.body.rules).toEqual([
      { id: early.id, name: "early", action: "challenge" },
      { id: late.id, name: "late", action: "block" },
    ]);
    expect(res.body.decision).toBe("challenge");
  });

  it("a rule on a fact the request lacks never matches, not even with neq", async () => {
    const ws = await app().seedWorkspace();
    await rule(ws.apiKey, {
      name: "not example",
      action: "block",
      conditions: [{ field: "email_domain", op: "neq", value: "example.com" }],
    });
    const res = await assess(ws.apiKey, { event: "signup", ip: CLEAN_IP, user_agent: CHROME_UA });
    expect(res.body).toMatchObject({ decision: "allow", rules: [] });
  });

  it("another workspace's rules never apply", async () => {
    const owner = await app().seedWorkspace();
    const other = await app().seedWorkspace();
    await rule(owner.apiKey, {
      name: "block all logins",
      action: "block",
      conditions: [{ field: "event", op: "eq", value: "login" }],
    });
    const res = await assess(other.apiKey, { event: "login", ip: CLEAN_IP, user_agent: CHROME_UA });
    expect(res.body).toMatchObject({ decision: "allow", rules: [] });
  });
});
