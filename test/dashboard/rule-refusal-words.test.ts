// The rule editor says the server's refusal of a draft in the form's words (a helper's walk): a condition row's
// problem without the API's codes for its field and test ("amount gt needs a number"), and a refusal about the name
// by the field's label ("name: must not be empty", as rules.create answers a blank name). The rows' messages are the
// server's own (conditionProblem), so a change of their wording shows here.
import { describe, expect, it } from "vitest";
import { splitServerError } from "../../app/dashboard/rules/rule-draft";
import { conditionProblem, CONDITION_OPS } from "../../server/rules/conditions";

const rowWords = (c: { field: string; op: string; value: unknown }) =>
  splitServerError(`conditions.0: ${conditionProblem(c)}`).conditions[0];

describe("a refused rule draft in the form's words", () => {
  it("says a condition row's problem without the field's and the test's codes", () => {
    expect(rowWords({ field: "amount", op: "gt", value: "lots" })).toBe("The value must be a number.");
    expect(rowWords({ field: "country", op: "eq", value: "Germany" })).toBe(
      "The value must be a two-letter country code such as DE.",
    );
    expect(rowWords({ field: "country", op: "eq", value: "XX" })).toBe(
      "The value must be a two-letter country code such as DE (XX names no country).",
    );
    expect(rowWords({ field: "country", op: "in", value: ["DE", "Germany"] })).toBe(
      "Each value must be a two-letter country code such as DE.",
    );
    expect(rowWords({ field: "ip", op: "cidr", value: "nope" })).toBe(
      'The value must be an address range such as "203.0.113.0/24", or up to 500 of them separated by commas.',
    );
    expect(rowWords({ field: "email_domain", op: "in", value: [] })).toBe(
      "The value must be 1 to 500 values separated by commas.",
    );
    expect(rowWords({ field: "ip", op: "eq", value: "x" })).toBe("The value must be an IPv4 or IPv6 address.");
    expect(rowWords({ field: "event", op: "eq", value: "" })).toBe("The value must be 1 to 512 characters long.");
    // No "<field> <test>" of the API's codes is left in any of them.
    for (const [field, value] of [
      ["amount", "x"],
      ["country", "Germany"],
      ["email_domain", ""],
    ] as const) {
      for (const op of ["eq", "in"]) {
        const words = rowWords({ field, op, value: op === "in" ? [value] : value }) ?? "";
        expect(words).not.toMatch(new RegExp(`${field} (${CONDITION_OPS.join("|")})\\b`));
      }
    }
  });

  it("says a refusal about the name by its label, at the name, beside a row's problem", () => {
    const split = splitServerError("name: must not be empty; conditions.1: amount gt needs a number");
    expect(split.name).toBe("Name must not be empty.");
    expect(split.other).toEqual([]);
    expect(split.conditions).toEqual({ 1: "The value must be a number." });
  });
});
