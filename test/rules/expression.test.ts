// Saving an expression: the validation table (good and bad expressions, with the position a person is pointed to),
// and the same refusals through POST /v1/rules as 400 INVALID_REQUEST.
import { beforeAll, describe, expect, it } from "vitest";
import { splitServerError } from "../../app/dashboard/rules/rule-draft";
import { CHECKER_SAYS, checkerWords, compileExpression, describeProblem } from "../../server/rules/expression";
import { createTestApp, type TestApp } from "../harness";

describe("expression validation table", () => {
  it.each([
    "ip.country != billing_country && amount > 500",
    'velocity.device_users_1h > 3 || "email_disposable" in signals',
    "email.disposable && has(email.address)",
    'ip.address.inCidr([" 203.0.113.0/24", "2001:db8::/32"]) && !ip.tor_exit',
    'signals.exists(s, s.startsWith("ip_")) && score >= 30 && ip.asn in [16509, 14618]',
    'event == "checkout" ? amount > 1000.0 : false',
    'user_agent.lowerAscii().contains("headless") || device.verdict == "automated"',
  ])("accepts %s", (src) => {
    expect(compileExpression(src)).toMatchObject({ ok: true });
  });

  it.each([
    ['ip.countr == "US"', 1, 4, /unknown identifier "ip\.countr"; did you mean "ip\.country"\?/],
    ['amount > 100 &&\n  ip.countyr == "US"', 2, 6, /did you mean "ip\.country"/],
    ["scor > 10", 1, 1, /unknown identifier "scor"; did you mean "score"\?/],
    ['amount > "100"', 1, 1, /^type error: ">" cannot compare a number \(double\) with a string\. Compare a fact/],
    ['score * "2" > 1', 1, 1, /^type error: "\*" cannot combine a whole number \(int\) with a string\./],
    ['score in "x"', 1, 1, /^type error: "in" cannot look for a whole number \(int\) in a string; it takes a list/],
    [
      "email.address.startsWith(3)",
      1,
      1,
      /^type error: startsWith\(\) on a string cannot take a whole number \(int\)\.$/,
    ],
    ["size(ip.asn) > 1", 1, 1, /^type error: size\(\) cannot take a whole number \(int\)\.$/],
    [
      "ip.tor_exit && 1",
      1,
      1,
      /^type error: && and \|\| need true or false on both sides, got a whole number \(int\)\.$/,
    ],
    ["amount > 10 &&& score > 1", 1, 15, /syntax error/],
    ['"abc', 1, 1, /^syntax error: a string is not closed: its closing quote is missing\.$/],
    ["amount > 10 &&& score > 1", 1, 15, /^syntax error: “&” cannot stand here\.$/],
    ["score +", 1, 8, /^syntax error: the expression ends too early\.$/],
    ['ip.country.foo == "x"', 1, 12, /^type error: a string has no fields or elements to pick with "\." or "\[ \]"\.$/],
    [
      'score > 1 ? 1 : "a"',
      1,
      1,
      /^type error: both results of "\? :" must be of one type, got a whole number \(int\) and a string\.$/,
    ],
    ["has(amount)", 1, 5, /^type error: has\(\) takes a field of a fact, such as has\(email\.address\)\.$/],
    [
      "amount in {1: 2}",
      1,
      1,
      /^type error: "in" cannot look for a number \(double\) in a map<int, int>; it takes a list/,
    ],
    ["score", 1, 1, /gives an int, but a rule needs true or false/],
    ['user_agent.matches("a.*")', 1, 1, /matches\(\) is not available/],
    ["cel.bind(x, score, x > 1)", 1, 1, /cel\.bind\(\) is not available/],
    ["[1, 2].exists(x, x > 1)", 1, 1, /may only range over a fact list/],
    ["signals.exists(a, signals.exists(b, signals.exists(c, a == b)))", 1, 37, /nested at most 2 deep/],
    ['score > 1 && ip.address.inCidr("203.0.113.0")', 1, 32, /"203\.0\.113\.0" is not a CIDR range/],
    ["", 1, 1, /empty/],
  ] as const)("refuses %j at line %i, column %i", (src, line, column, message) => {
    const c = compileExpression(src);
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect({ line: c.problem.line, column: c.problem.column }).toEqual({ line, column });
    expect(c.problem.message).toMatch(message);
  });
});

describe("saving an expression rule", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });

  it("stores an expression rule and answers a bad one with 400 INVALID_REQUEST, its position and what to change", async () => {
    const ws = await app.seedWorkspace();
    const ok = await app.request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: { name: "geo", action: "review", expression: "ip.country != billing_country\n  && amount > 500" },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      mode: "active",
      conditions: null,
      expression: "ip.country != billing_country\n  && amount > 500",
    });

    const bad = await app.request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: { name: "geo", action: "review", expression: 'amount > 500 &&\n  ip.countyr == "US"' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_REQUEST");
    expect(bad.body.error.message).toMatch(
      /^expression: Invalid expression at line 2, column 6 \(offset 21\): unknown identifier "ip\.countyr"; did you mean "ip\.country"\?/,
    );

    const both = await app.request("POST", "/v1/rules", {
      key: ws.apiKey,
      body: {
        name: "x",
        action: "block",
        expression: "score > 1",
        conditions: [{ field: "score", op: "gt", value: 1 }],
      },
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/exactly one of `conditions` and `expression`/);
    const neither = await app.request("POST", "/v1/rules", { key: ws.apiKey, body: { name: "x", action: "block" } });
    expect(neither.status).toBe(400);

    const patched = await app.request("PATCH", `/v1/rules/${ok.body.id}`, {
      key: ws.apiKey,
      body: { conditions: [{ field: "score", op: "gt", value: 50 }], mode: "shadow" },
    });
    expect(patched.body).toMatchObject({
      mode: "shadow",
      expression: null,
      conditions: [{ field: "score", op: "gt", value: 50 }],
    });
    const badPatch = await app.request("PATCH", `/v1/rules/${ok.body.id}`, {
      key: ws.apiKey,
      body: { expression: "score >" },
    });
    expect(badPatch.status).toBe(400);
    expect(badPatch.body.error.message).toMatch(/line 1, column 8/);
    expect((await app.request("GET", `/v1/rules/${ok.body.id}`, { key: ws.apiKey })).body).toEqual(patched.body);
  });
});

describe("the checker's own words", () => {
  // Every refusal above is said in our words; one the table does not know yet keeps the checker's words, quoted so
  // the rule editor (app/dashboard/rules/rule-draft.ts) shows only our explanation and the quote behind a disclosure.
  it("are never part of a refusal's explanation in the rule editor", () => {
    for (const src of ['amount > "x"', "size(amount) > 1", "ip.country.foo", 'score > 1 ? 1 : "a"', "has(amount)"]) {
      const c = compileExpression(src);
      expect(c.ok).toBe(false);
      if (c.ok) continue;
      expect(c.problem.message).not.toMatch(/overload|Cannot index|Ternary|invalid argument|Unexpected token|EOF/);
    }
    const unknown = checkerWords("Some new complaint");
    expect(unknown).toBe(`this part cannot be used here (${CHECKER_SAYS} “Some new complaint”)`);
    const problem = { message: `type error: ${unknown}.`, start: 4, end: 6, line: 1, column: 5 };
    expect(splitServerError(`expression: ${describeProblem(problem)}`).expression).toEqual({
      line: 1,
      column: 5,
      message: "type error: this part cannot be used here.",
      checker: "Some new complaint",
    });
  });
});
