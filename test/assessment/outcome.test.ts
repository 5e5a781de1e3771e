// POST /v1/assess/{request_id}/outcome: replaceable labels, recorded as events, isolated per workspace; and the
// outcome measures of GET /v1/analytics/summary (per rule, per risk level, signals by outcome).
import { describe, expect, it } from "vitest";
import { CHROME_UA, CLEAN_IP, HEADLESS_UA, TOR_HOSTING_IP, useAssessmentApp } from "./setup";

const { app } = useAssessmentApp();
const assess = (key: string, body: unknown) => app().request("POST", "/v1/assess", { key, body });
const label = (key: string, requestId: string, body: unknown) =>
  app().request("POST", `/v1/assess/${requestId}/outcome`, { key, body });

describe("POST /v1/assess/{request_id}/outcome", () => {
  it("labels an assessment, replaces the label, records events, is unmetered, and is 404 for any other workspace", async () => {
    const ws = await app().seedWorkspace();
    const other = await app().seedWorkspace();
    const a = await assess(ws.apiKey, { event: "signup", ip: CLEAN_IP, user_agent: CHROME_UA });
    const units = await app().used(ws.workspaceId);

    const first = await label(ws.apiKey, a.body.request_id, { outcome: "fraud", note: "card reported stolen" });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      request_id: a.body.request_id,
      outcome: "fraud",
      note: "card reported stolen",
      previous: null,
      labelled_at: expect.any(String),
    });
    const second = await label(ws.apiKey, a.body.request_id, { outcome: "legitimate" });
    expect(second.body).toMatchObject({ outcome: "legitimate", note: null, previous: "fraud" });
    expect(await app().used(ws.workspaceId)).toBe(units);

    const events = await app().request("GET", `/v1/events?query=${a.body.request_id}&type=assessment.outcome`, {
      key: ws.apiKey,
    });
    expect(events.body.items.map((e: { data: { outcome: string } }) => e.data.outcome)).toEqual([
      "legitimate",
      "fraud",
    ]);
    expect(events.body.items[1].data).toMatchObject({
      note: "card reported stolen",
      previous: null,
      labelled_by: expect.stringMatching(/^api_key:/),
    });

    for (const [key, id] of [
      [other.apiKey, a.body.request_id],
      [ws.apiKey, "req_unknown"],
    ] as const) {
      const res = await label(key, id, { outcome: "fraud" });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    // Nothing was written for the refused label.
    const still = await app().request("GET", `/v1/events?query=${a.body.request_id}&type=assessment.outcome`, {
      key: ws.apiKey,
    });
    expect(still.body.items).toHaveLength(2);
    expect(
      (await app().request("GET", `/v1/events?type=assessment.outcome`, { key: other.apiKey })).body.items,
    ).toEqual([]);

    const bad = await label(ws.apiKey, a.body.request_id, { outcome: "stolen" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_REQUEST");
    expect((await label(ws.apiKey, a.body.request_id, { outcome: "abuse", note: "x".repeat(1001) })).status).toBe(400);
  });

  it("/analytics/summary measures rules (active and shadow) and risk levels against labels, and signals by outcome", async () => {
    const ws = await app().seedWorkspace();
    const mk = async (body: Record<string, unknown>) =>
      (await app().request("POST", "/v1/rules", { key: ws.apiKey, body })).body.id as string;
    const torRule = await mk({ name: "tor", action: "block", expression: "ip.tor_exit" });
    const shadowHeadless = await mk({
      name: "headless",
      action: "challenge",
      mode: "shadow",
      expression: '"ua_automation" in signals',
    });
    const unused = await mk({ name: "unused", action: "review", expression: 'billing_country == "AQ"' });

    const fraudTor = await assess(ws.apiKey, {
      event: "signup",
      ip: TOR_HOSTING_IP,
      email: "a@mailinator.com",
      user_agent: HEADLESS_UA,
    });
    const legitTor = await assess(ws.apiKey, { event: "login", ip: TOR_HOSTING_IP, user_agent: CHROME_UA });
    const fraudClean = await assess(ws.apiKey, { event: "signup", ip: CLEAN_IP, user_agent: HEADLESS_UA });
    const legitClean = await assess(ws.apiKey, { event: "signup", ip: CLEAN_IP, user_agent: CHROME_UA });
    await assess(ws.apiKey, { event: "signup", ip: CLEAN_IP, user_agent: CHROME_UA });
    await label(ws.apiKey, fraudTor.body.request_id, { outcome: "chargeback" });
    await label(ws.apiKey, legitTor.body.request_id, { outcome: "legitimate" });
    await label(ws.apiKey, fraudClean.body.request_id, { outcome: "account_takeover" });
    await label(ws.apiKey, legitClean.body.request_id, { outcome: "fraud" });
    await label(ws.apiKey, legitClean.body.request_id, { outcome: "legitimate" });

    const res = await app().request("GET", "/v1/analytics/summary", { key: ws.apiKey });
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s.labelled).toEqual({ fraud: 2, legitimate: 2 });
    const byName = Object.fromEntries(s.rules.map((r: { name: string }) => [r.name, r]));
    expect(byName.tor).toEqual({
      id: torRule,
      name: "tor",
      mode: "active",
      action: "block",
      matched: 2,
      differed: 0,
      labelledFraud: 1,
      labelledLegitimate: 1,
      precision: 0.5,
      recall: 0.5,
    });
    // The headless shadow rule matched both headless requests; on the Tor one the decision was block, not challenge.
    expect(byName.headless).toMatchObject({
      id: shadowHeadless,
      mode: "shadow",
      matched: 2,
      differed: 2,
      labelledFraud: 2,
      labelledLegitimate: 0,
      precision: 1,
      recall: 1,
    });
    expect(byName.unused).toMatchObject({ id: unused, matched: 0, precision: null, recall: 0 });
    const levels = Object.fromEntries(s.riskLevelOutcomes.map((l: { level: string }) => [l.level, l]));
    expect(levels.low).toMatchObject({
      assessments: 2,
      labelledFraud: 0,
      labelledLegitimate: 1,
      precision: 0,
      recall: 0,
    });
    expect(levels.critical.labelledFraud + levels.high.labelledFraud + levels.medium.labelledFraud).toBe(2);
    expect(s.signalsByOutcome.fraud).toContainEqual({ signal: "ua_automation", count: 2, share: 1 });
    expect(s.signalsByOutcome.legitimate).toContainEqual({ signal: "ip_tor_exit", count: 1, share: 0.5 });
    // The existing fields are still there.
    expect(s).toMatchObject({
      riskLevels: expect.any(Object),
      decisions: expect.any(Object),
      topSignals: expect.any(Array),
      endpoints: expect.any(Array),
    });

    const other = await app().seedWorkspace();
    const empty = (await app().request("GET", "/v1/analytics/summary", { key: other.apiKey })).body;
    expect(empty).toMatchObject({
      labelled: { fraud: 0, legitimate: 0 },
      rules: [],
      signalsByOutcome: { fraud: [], legitimate: [] },
    });
  });
});
