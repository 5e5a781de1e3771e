import { describe, expect, it } from "vitest";
import { parsePhone, phoneInputProblem, PHONE_SOURCE, PHONE_TYPES } from "../../server/phone/parse";

describe("parsePhone", () => {
  it.each([
    // The numbering plan of the US cannot tell a mobile from a fixed line.
    ["+12015550123", undefined, { valid: true, e164: "+12015550123", country: "US", type: "fixed_line_or_mobile" }],
    [
      "+1 (201) 555-0123",
      undefined,
      { valid: true, e164: "+12015550123", country: "US", type: "fixed_line_or_mobile" },
    ],
    ["+447400123456", undefined, { valid: true, e164: "+447400123456", country: "GB", type: "mobile" }],
    ["07400 123456", "GB", { valid: true, e164: "+447400123456", country: "GB", type: "mobile" }],
    ["07400 123456", "gb", { valid: true, e164: "+447400123456", country: "GB", type: "mobile" }],
    ["+449098790123", undefined, { valid: true, e164: "+449098790123", country: "GB", type: "premium_rate" }],
    ["+19005550123", undefined, { valid: true, e164: "+19005550123", country: "US", type: "premium_rate" }],
    ["+4930123456", undefined, { valid: true, e164: "+4930123456", country: "DE", type: "fixed_line" }],
    ["+33612345678", undefined, { valid: true, e164: "+33612345678", country: "FR", type: "mobile" }],
    // A non-geographic number has no country.
    ["+800 1234 5678", undefined, { valid: true, e164: "+80012345678", country: null, type: "toll_free" }],
    // An E.164 number ignores the default country.
    ["+447400123456", "US", { valid: true, e164: "+447400123456", country: "GB", type: "mobile" }],
  ])("%s (country %s) is %o", (input, country, expected) => {
    expect(parsePhone(input, country)).toEqual({ ...expected, possible: true });
  });

  it("answers an invalid number as invalid, not as an error", () => {
    expect(parsePhone("+4412")).toEqual({ valid: false, e164: null, country: null, type: "unknown", possible: false });
    // Possible length, but no such prefix in the plan.
    const r = parsePhone("+12005550123");
    expect(r.valid).toBe(false);
    expect(r.e164).toBeNull();
  });

  it("reads malformed input as an invalid number, and says why it is malformed", () => {
    for (const [input, country, problem] of [
      ["not a number", undefined, /only digits/],
      ["+1".padEnd(45, "2"), undefined, /longer than 40/],
      ["2015550123", undefined, /national number without a country/],
      ["2015550123", "XX", /unknown country "XX"/],
      ["+(1)", undefined, /fewer than 2 digits/],
      ["+1234567890123456789", undefined, /more than 17 digits/],
    ] as const) {
      expect(phoneInputProblem(input, country)).toMatch(problem);
      expect(parsePhone(input, country).valid).toBe(false);
    }
    expect(phoneInputProblem("+12015550123")).toBeNull();
    expect(phoneInputProblem("2015550123", "US")).toBeNull();
  });

  it("ignores the country beside a number with +, even one that names no country", () => {
    for (const country of ["XX", "gbr", "12", "DE"]) {
      expect(phoneInputProblem("+447400123456", country)).toBeNull();
      expect(parsePhone("+447400123456", country)).toMatchObject({ valid: true, e164: "+447400123456", country: "GB" });
    }
  });

  it("names its data: libphonenumber-js's installed version and its max metadata", () => {
    expect(PHONE_SOURCE.name).toBe("libphonenumber-js");
    expect(PHONE_SOURCE.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(PHONE_SOURCE.metadata).toBe("max");
    expect(PHONE_TYPES).toContain("fixed_line_or_mobile");
  });
});
