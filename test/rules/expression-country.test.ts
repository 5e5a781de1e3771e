// A country code in a rule expression is judged as a condition's country value is: compared with a country fact
// (ip.country, billing_country, phone.country), a literal that names no country (ZZ, EU), that /assess reads as
// another code (UK is GB) or that is in lower case (the facts are upper case, and an expression is kept and run as
// written) could never be equal to the fact, so saving it is 400 at the literal's position. A rule saved before
// literals were judged is still read, and behaves as it always did.
import { describe, expect, it } from "vitest";
import { compileExpression, describeProblem } from "../../server/rules/expression";
import { CHROME_UA, useAssessmentApp } from "../assessment/setup";

const { app } = useAssessmentApp();

/** The names of the rules that matched a checkout billed to `billing_country`, checking no rule failed to run. */
async function matched(key: string, billing_country: string, amount = 100) {
  const res = await app().request("POST", "/v1/assess", {
    key,
    body: { event: "checkout", ip: "8.8.8.8", user_agent: CHROME_UA, billing_country, amount, currency: "EUR" },
  });
  expect(res.status).toBe(200);
  expect(res.body.rule_errors ?? []).toEqual([]);
  return (res.body.rules as { name: string }[]).map((r) => r.name);
}

describe("a country literal in a rule expression", () => {
  it.each([
    ['billing_country == "ZZ"', 1, 20, /"ZZ" is not a two-letter ISO 3166-1 country code \(ZZ names no country\)\.$/],
    ['"EU" != ip.country', 1, 1, /"EU" is not a two-letter ISO 3166-1 country code \(EU names no country\)/],
    ['amount > 1.0 &&\n  ip.country in ["DE", "FR", "XX"]', 2, 30, /"XX" is not a two-letter ISO 3166-1 country code/],
    ['billing_country == "UK"', 1, 20, /"UK" is not a two-letter ISO 3166-1 country code \(UK is GB in ISO 3166-1\)/],
    ['phone.country == "USA"', 1, 18, /"USA" is not a two-letter ISO 3166-1 country code\.$/],
    ['billing_country == "de"', 1, 20, /"de" never equals a country fact, which is in upper case: write "DE"\.$/],
    ['ip.country in ["FR", "Gb"]', 1, 22, /"Gb" never equals a country fact, .*write "GB"/],
  ])("refuses %s at line %i, column %i", (source, line, column, message) => {
    const c = compileExpression(source);
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect(c.problem).toMatchObject({ line, column });
    expect(c.problem.message).toMatch(message);
  });

  it.each([
    'billing_country == "DE" || ip.country in ["FR", "GB"]',
    'ip.country != billing_country && phone.country == "GG"',
    'user_agent == "ZZ" && currency != "EU"',
    'billing_country.startsWith("Z")',
  ])("takes %s", (source) => {
    expect(compileExpression(source)).toMatchObject({ ok: true });
  });

  it("is 400 INVALID_REQUEST through /v1/rules and saves nothing; an upper-case code is saved and matches", async () => {
    const ws = await app().seedWorkspace();
    const bad = await app().request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: { name: "nowhere", action: "block", expression: 'billing_country in ["DE", "EU"]' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_REQUEST");
    expect(bad.body.error.message).toMatch(/line 1, column 27 .*"EU" is not a two-letter ISO 3166-1 country code/);
    expect((await app().request("GET", "/v1/rules", { key: ws.apiKey })).body.items).toEqual([]);

    const ok = await app().request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: { name: "german billing", action: "block", expression: 'billing_country == "DE"' },
    });
    expect(ok.status).toBe(200);
    expect(await matched(ws.apiKey, "de")).toEqual(["german billing"]);
    expect(await matched(ws.apiKey, "FR")).toEqual([]);
  });

  it("a rule saved before literals were judged is evaluated without an error, never matches, and can be renamed", async () => {
    const ws = await app().seedWorkspace();
    const id = "rule_legacy_expression_zz";
    await app().db.rule.create({
      data: { id, workspaceId: ws.workspaceId, name: "Old", action: "block", expression: 'billing_country == "ZZ"' },
    });
    // A lower-case code never matched a fact: saved before, its rule keeps its meaning (`!=` holds for every country).
    await app().db.rule.create({
      data: {
        id: `${id}_lower`,
        workspaceId: ws.workspaceId,
        name: "Lower",
        action: "review",
        expression: 'billing_country != "de" && amount > 9000.0',
      },
    });
    expect(await matched(ws.apiKey, "DE")).toEqual([]);
    expect(await matched(ws.apiKey, "DE", 9500)).toEqual(["Lower"]);
    const renamed = await app().request("PATCH", `/v1/rules/${id}`, { key: ws.apiKey, body: { name: "Older" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Older", expression: 'billing_country == "ZZ"' });
  });

  it("says where the literal is in the rule editor's words", () => {
    const c = compileExpression('ip.country == "XX"');
    expect(c.ok).toBe(false);
    if (!c.ok)
      expect(describeProblem(c.problem)).toMatch(/^Invalid expression at line 1, column 15 \(offset 14\): "XX"/);
  });
});
