// POST /v1/rules/backtest on a seeded set of 3,000 labelled assessments whose answer is computed here by plain
// logic, independent of the evaluator; plus a backtest of real assessments through POST /v1/assess.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../server/ids";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterEach(() => {
  delete process.env.SERVICE_RULES_BACKTEST_RATE_LIMIT;
});

const N = 3000;
const band = (score: number) =>
  score < 30
    ? ["low", "allow"]
    : score < 60
      ? ["medium", "review"]
      : score < 80
        ? ["high", "challenge"]
        : ["critical", "block"];
function seedRow(i: number, allowRuleId: string) {
  const country = i % 3 === 0 ? "NG" : "US";
  const amount = (i % 10) * 100;
  const score = i % 100;
  const [level, scoreDecision] = band(score);
  const whitelisted = i % 7 === 0;
  return {
    i,
    country,
    amount,
    level,
    decision: whitelisted ? "allow" : scoreDecision,
    rules: whitelisted ? [allowRuleId] : [],
    label: i % 4 === 0 ? (i % 3 === 0 || i % 11 === 0 ? "chargeback" : "legitimate") : null,
  };
}

async function seed(workspaceId: string, allowRuleId: string) {
  const t0 = Date.now() - 2 * 86_400_000;
  const rows = Array.from({ length: N }, (_, i) => seedRow(i, allowRuleId));
  const events = rows.map((r) => ({
    id: newId("evt"),
    workspaceId,
    requestId: `req_seed_${r.i}`,
    type: "assessment",
    createdAt: new Date(t0 + r.i * 1000),
    data: {
      event: "checkout",
      score: r.i % 100,
      risk_level: r.level,
      decision: r.decision,
      signals: [],
      rules: r.rules,
      shadow_rules: [],
      facts: {
        event: "checkout",
        billing_country: "US",
        amount: r.amount,
        score: r.i % 100,
        risk_level: r.level,
        signals: [],
        "ip.address": "203.0.113.1",
        "ip.country": r.country,
      },
    },
  }));
  const labels = rows
    .filter((r) => r.label)
    .map((r) => ({
      id: newId("evt"),
      workspaceId,
      requestId: `req_seed_${r.i}`,
      type: "assessment.outcome",
      createdAt: new Date(t0 + N * 1000 + r.i),
      data: { outcome: r.label },
    }));
  // A relabel replaces the first label: request 0 was first labelled legitimate, then chargeback (above).
  labels.unshift({
    id: newId("evt"),
    workspaceId,
    requestId: "req_seed_0",
    type: "assessment.outcome",
    createdAt: new Date(t0 + N * 1000 - 1),
    data: { outcome: "legitimate" },
  });
  for (let k = 0; k < events.length; k += 1000) await app.db.event.createMany({ data: events.slice(k, k + 1000) });
  await app.db.event.createMany({ data: labels });
  // An assessment recorded before facts were stored.
  await app.db.event.create({
    data: {
      id: newId("evt"),
      workspaceId,
      requestId: "req_old",
      type: "assessment",
      createdAt: new Date(t0),
      data: { score: 1, risk_level: "low", decision: "allow", rules: [] },
    },
  });
  return rows;
}

describe("POST /v1/rules/backtest", () => {
  it("answers matches, decision changes, samples, precision and recall on a seeded labelled set", async () => {
    const ws = await app.seedWorkspace();
    const other = await app.seedWorkspace();
    const allow = await app.request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: { name: "VIP", action: "allow", priority: -1, expression: 'user_id == "vip"' },
    });
    const rows = await seed(ws.workspaceId, allow.body.id);
    await seed(other.workspaceId, "rule_other");

    // The known answer, by plain logic.
    const match = rows.filter((r) => r.country !== "US" && r.amount >= 500);
    const changes = new Map<string, number>();
    for (const r of match)
      if (r.rules.length === 0 && r.decision !== "block")
        changes.set(`${r.decision}>block`, (changes.get(`${r.decision}>block`) ?? 0) + 1);
    const fraud = rows.filter((r) => r.label && r.label !== "legitimate").length;
    const mf = match.filter((r) => r.label && r.label !== "legitimate").length;
    const ml = match.filter((r) => r.label === "legitimate").length;

    const res = await app.request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: { action: "block", expression: "ip.country != billing_country && amount >= 500", samples: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      rule: { id: null, action: "block", expression: "ip.country != billing_country && amount >= 500" },
      assessments: N,
      without_facts: 1,
      truncated: false,
      matched: match.length,
      sample_request_ids: match
        .slice(-3)
        .reverse()
        .map((r) => `req_seed_${r.i}`),
      errors: { count: 0, first: null },
      labelled: {
        fraud,
        legitimate: rows.filter((r) => r.label === "legitimate").length,
        matched_fraud: mf,
        matched_legitimate: ml,
      },
      precision: Math.round((mf / (mf + ml)) * 10_000) / 10_000,
      recall: Math.round((mf / fraud) * 10_000) / 10_000,
    });
    expect(
      Object.fromEntries(
        res.body.decision_changes.map((c: { from: string; to: string; count: number }) => [
          `${c.from}>${c.to}`,
          c.count,
        ]),
      ),
    ).toEqual(Object.fromEntries(changes));
    expect(match.length).toBeGreaterThan(400);

    // The same rule as conditions gives the same answer; so does the stored rule by id.
    const asConditions = await app.request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: {
        action: "block",
        conditions: [
          { field: "country", op: "neq", value: "US" },
          { field: "amount", op: "gte", value: 500 },
        ],
        samples: 3,
      },
    });
    const same = (b: Record<string, unknown>) => ({ ...b, rule: null, duration_ms: 0, since: null, until: null });
    expect(same(asConditions.body)).toEqual(same(res.body));
    const stored = await app.request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: {
        name: "geo",
        action: "block",
        mode: "shadow",
        expression: "ip.country != billing_country && amount >= 500",
      },
    });
    const byId = await app.request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: { rule_id: stored.body.id, samples: 3 },
    });
    expect(same(byId.body)).toEqual(same(res.body));

    // A range that holds none of them.
    const empty = await app.request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: { action: "block", expression: "score > 1", since: "2020-01-01", until: "2020-02-01" },
    });
    expect(empty.body).toMatchObject({ assessments: 0, matched: 0, precision: null, recall: null });
  }, 120_000);

  it("refuses a bad expression with its position, an unknown or foreign rule id with 404, and bursts with 429", async () => {
    const ws = await app.seedWorkspace();
    const other = await app.seedWorkspace();
    const bad = await app.request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: { action: "block", expression: "amount >> 5" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: "INVALID_REQUEST",
      message: expect.stringMatching(/line 1, column \d+/),
    });
    const noAction = await app.request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: { expression: "score > 5" },
    });
    expect(noAction.status).toBe(400);
    // The field is named once, by the path the message is given under.
    expect(noAction.body.error.message).toContain("action: required when the rule is sent (not a `rule_id`)");
    expect(noAction.body.error.message).not.toContain("action: action:");
    const foreign = await app.request("POST", "/v1/rules", {
      key: other.apiKey,
      body: { name: "x", action: "block", expression: "score > 5" },
    });
    for (const id of ["rule_nope", foreign.body.id]) {
      const res = await app.request("POST", "/v1/rules/backtest", { key: ws.apiKey, body: { rule_id: id } });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    process.env.SERVICE_RULES_BACKTEST_RATE_LIMIT = "1";
    const third = await app.seedWorkspace();
    expect(
      (
        await app.request("POST", "/v1/rules/backtest", {
          key: third.apiKey,
          body: { action: "block", expression: "score > 5" },
        })
      ).status,
    ).toBe(200);
    const limited = await app.request("POST", "/v1/rules/backtest", {
      key: third.apiKey,
      body: { action: "block", expression: "score > 5" },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toEqual({
      code: "RATE_LIMITED",
      message: expect.stringMatching(/^Too many backtests; retry in \d+ s\.$/),
    });
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    const free = await app.seedWorkspace({ plans: ["free"] });
    expect(
      (
        await app.request("POST", "/v1/rules/backtest", {
          key: free.apiKey,
          body: { action: "block", expression: "score > 5" },
        })
      ).status,
    ).toBe(403);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
  });

  it("answers input its schema refuses with 400 before the burst limit, which it does not use up", async () => {
    // The ladder's order (README, server/api/ladder.ts): input validation, then the burst limit. Ten typos in a row
    // were ten 400s that spent the workspace's ten backtests a minute, and the eleventh request, a good one, was 429.
    process.env.SERVICE_RULES_BACKTEST_RATE_LIMIT = "1";
    const ws = await app.seedWorkspace();
    for (const body of [
      { action: "blok", expression: "score > 5" },
      { action: "block", conditions: [] },
    ]) {
      const bad = await app.request("POST", "/v1/rules/backtest", { key: ws.apiKey, body });
      expect([bad.status, bad.body.error.code]).toEqual([400, "INVALID_REQUEST"]);
    }
    const good = await app.request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: { action: "block", expression: "score > 5" },
    });
    expect(good.status).toBe(200);
    // The limit still holds for what it counts, and a bad request past it is still told what is wrong with it.
    const limited = await app.request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: { action: "block", expression: "score > 5" },
    });
    expect([limited.status, limited.body.error.code]).toEqual([429, "RATE_LIMITED"]);
    const badPastLimit = await app.request("POST", "/v1/rules/backtest", {
      key: ws.apiKey,
      body: { action: "blok", expression: "score > 5" },
    });
    expect([badPastLimit.status, badPastLimit.body.error.code]).toEqual([400, "INVALID_REQUEST"]);
  });
});
