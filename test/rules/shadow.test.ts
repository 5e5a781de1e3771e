// Shadow rules are evaluated and reported on every assessment and recorded in its event, but never change the
// decision; expression rules decide like condition rules; a failing rule is reported and skipped; the facts stored
// with real assessments are what a backtest evaluates.
import { describe, expect, it } from "vitest";
import { CHROME_UA, CLEAN_IP, HEADLESS_UA, TOR_HOSTING_IP, useAssessmentApp } from "../assessment/setup";

const { app } = useAssessmentApp();

async function rule(key: string, body: Record<string, unknown>) {
  const res = await app().request("POST", "/v1/rules", { key, body });
  expect(res.status).toBe(200);
  return res.body as { id: string; name: string; action: string };
}
const assess = (key: string, body: unknown) => app().request("POST", "/v1/assess", { key, body });

describe("shadow mode", () => {
  it("shadow rules never change a decision, whatever they match, and are recorded in the event", async () => {
    const ws = await app().seedWorkspace();
    const shadowBlock = await rule(ws.apiKey, {
      name: "shadow block all",
      action: "block",
      mode: "shadow",
      priority: -10,
      expression: 'event in ["signup", "login", "checkout"]',
    });
    const shadowAllow = await rule(ws.apiKey, {
      name: "shadow allow tor",
      action: "allow",
      mode: "shadow",
      priority: -5,
      conditions: [{ field: "tor_exit", op: "eq", value: true }],
    });
    const cases = [
      { event: "signup", ip: CLEAN_IP, user_agent: CHROME_UA },
      { event: "login", ip: TOR_HOSTING_IP, email: "bot@mailinator.com", user_agent: HEADLESS_UA },
      { event: "checkout", ip: TOR_HOSTING_IP, user_agent: CHROME_UA, amount: 20 },
    ];
    const other = await app().seedWorkspace();
    for (const body of cases) {
      const withShadow = await assess(ws.apiKey, body);
      const without = await assess(other.apiKey, body);
      expect(withShadow.status).toBe(200);
      // Same score and decision as in a workspace without the rules.
      expect({
        decision: withShadow.body.decision,
        decided_by: withShadow.body.decided_by,
        rules: withShadow.body.rules,
      }).toEqual({ decision: without.body.decision, decided_by: "score", rules: [] });
      const expected = [
        { id: shadowBlock.id, name: shadowBlock.name, action: "block" },
        ...(body.ip === TOR_HOSTING_IP ? [{ id: shadowAllow.id, name: shadowAllow.name, action: "allow" }] : []),
      ];
      expect(withShadow.body.shadow_rules).toEqual(expected);
      const ev = await app().request("GET", `/v1/events?query=${withShadow.body.request_id}&type=assessment`, {
        key: ws.apiKey,
      });
      expect(ev.body.items[0]).toMatchObject({
        rule: null,
        data: {
          decision: without.body.decision,
          rules: [],
          shadow_rules: expected.map((r) => ({ id: r.id, action: r.action })),
        },
      });
    }
  });

  it("an expression rule decides, a failing rule is reported and skipped, and the stored facts feed a backtest", async () => {
    const ws = await app().seedWorkspace();
    await rule(ws.apiKey, { name: "broken", action: "block", priority: 1, expression: "100 / (score - score) > 1" });
    const geo = await rule(ws.apiKey, {
      name: "geo",
      action: "review",
      priority: 2,
      expression: 'ip.country != billing_country && amount > 100.0 && "geo_mismatch" in signals',
    });
    const hit = await assess(ws.apiKey, {
      event: "checkout",
      ip: CLEAN_IP,
      user_agent: CHROME_UA,
      billing_country: "de",
      amount: 250,
      currency: "eur",
    });
    expect(hit.body).toMatchObject({
      decision: "review",
      decided_by: "rule",
      rules: [{ id: geo.id, action: "review" }],
      rule_errors: [{ name: "broken", message: expect.stringMatching(/division by zero/) }],
    });
    const miss = await assess(ws.apiKey, {
      event: "checkout",
      ip: CLEAN_IP,
      user_agent: CHROME_UA,
      billing_country: "US",
      amount: 250,
    });
    expect(miss.body).toMatchObject({ decision: "allow", rules: [] });
    // Facts stored with the events: a backtest of a velocity rule over them needs no upstream.
    const bt = await app().request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: { action: "block", expression: 'velocity.ip_1h >= 1 && ip.country == "US" && currency == "EUR"' },
    });
    expect(bt.body).toMatchObject({ assessments: 2, matched: 0 });
    const bt2 = await app().request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: { action: "block", expression: 'ip.country == "US" && has(ip.asn) && "geo_mismatch" in signals' },
    });
    expect(bt2.body).toMatchObject({
      assessments: 2,
      matched: 1,
      sample_request_ids: [hit.body.request_id],
      decision_changes: [{ from: "review", to: "block", count: 1 }],
    });
  });
});
