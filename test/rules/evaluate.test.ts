import { describe, expect, it } from "vitest";
import { conditionProblem } from "../../server/rules/conditions";
import { conditionHolds, type RuleFacts } from "../../server/rules/evaluate";

const facts: RuleFacts = {
  event: "checkout", ip: "2001:db8::1", country: "DE", billing_country: null, asn: 3320, email: "a@shop.example", email_domain: "shop.example",
  disposable_email: false, free_email: false, tor_exit: null, hosting: false, score: 42, amount: 99.5, currency: "EUR",
  user_agent: "Mozilla/5.0 Firefox/128.0", device_id: "Dev-1", user_id: null,
};

describe("rule conditions", () => {
  it.each([
    [{ field: "country", op: "in", value: ["de", "AT"] }, true],
    [{ field: "country", op: "not_in", value: ["DE"] }, false],
    [{ field: "ip", op: "cidr", value: "2001:db8::/32" }, true],
    [{ field: "ip", op: "eq", value: "2001:0db8:0:0::1" }, true],
    [{ field: "score", op: "gte", value: 42 }, true],
    [{ field: "amount", op: "lt", value: 99 }, false],
    [{ field: "user_agent", op: "contains", value: "firefox" }, true],
    [{ field: "device_id", op: "eq", value: "dev-1" }, false],
    [{ field: "tor_exit", op: "eq", value: false }, false],
    [{ field: "user_id", op: "neq", value: "u1" }, false],
    [{ field: "asn", op: "in", value: [3320, 6805] }, true],
  ] as const)("%o holds: %s", (c, expected) => {
    expect(conditionProblem(c)).toBeNull();
    expect(conditionHolds(c as never, facts)).toBe(expected);
  });

  it("describes what is wrong with a malformed condition", () => {
    expect(conditionProblem({ field: "ip", op: "cidr", value: "10.0.0.1" })).toMatch(/CIDR/);
    expect(conditionProblem({ field: "event", op: "in", value: "signup" })).toMatch(/list of 1 to 500/);
    expect(conditionProblem({ field: "hosting", op: "eq", value: "yes" })).toMatch(/true or false/);
  });
});
