// Form errors say the form's labels, once per field, never the API's field names or a standard's number (outside
// walk F-assess-2, F-analytics-1).
import { describe, expect, it } from "vitest";
import { inFormWords } from "../../app/dashboard/_components/field-words";
import { rangeProblem } from "../../app/dashboard/_components/DateRangeFilter";
import { ASSESS_LABELS } from "../../app/dashboard/assess/AssessForm";

describe("inFormWords", () => {
  it("says the walk's assessment refusal by the form's labels, the country once", () => {
    expect(
      inFormWords(
        "ip: must be a valid IPv4 or IPv6 address; email is not a valid address: The domain after the @ is empty.; billing_country must be an ISO 3166-1 alpha-2 code; billing_country is not a country (ISO 3166-1 alpha-2)",
        ASSESS_LABELS,
      ),
    ).toBe(
      "IP address must be a valid IPv4 or IPv6 address; Email is not a valid address: The domain after the @ is empty; Billing country must be a two-letter country code such as DE.",
    );
  });

  it("names a card field by its label and leaves a sentence about no field as it is", () => {
    expect(inFormWords("payment.bin: must be 6 to 8 digits", ASSESS_LABELS)).toBe("Card BIN must be 6 to 8 digits.");
    expect(inFormWords("The workspace has no units left.", ASSESS_LABELS)).toBe("The workspace has no units left.");
    // A message that is a sentence of its own follows its field's label after a colon.
    expect(
      inFormWords("domain: A domain name has no spaces, slashes, ports, @ or brackets.", { domain: "Domain" }),
    ).toBe("Domain: A domain name has no spaces, slashes, ports, @ or brackets.");
  });
});

describe("rangeProblem", () => {
  const custom = (from: string, to: string) => ({ range: "custom" as const, from, to });
  it("says To before From by the fields' labels", () => {
    expect(rangeProblem(custom("2026-11-28", "2026-11-01"))).toBe("The “To” date must be on or after the “From” date.");
    expect(rangeProblem(custom("2026-11-01", "2026-11-01"))).toBeNull();
  });
  it("says a range longer than the page reads, and nothing about presets or half-filled dates", () => {
    expect(rangeProblem(custom("2019-01-01", "2026-01-01"), 366)).toBe(
      "Choose at most 366 days from “From” to “To” (these dates cover 2,558).",
    );
    expect(rangeProblem(custom("2026-01-01", "2026-12-31"), 366)).toBeNull();
    expect(rangeProblem({ range: "30", from: "2026-11-28", to: "2026-11-01" })).toBeNull();
    expect(rangeProblem(custom("2026-11-28", ""))).toBeNull();
  });
});

describe("inFormWords with the API's other spellings of a field", () => {
  it("says a camelCase field and an item of a list field by their labels", () => {
    expect(inFormWords("cveId: must be a CVE identifier such as CVE-2021-44228", { cveId: "CVE identifier" })).toBe(
      "CVE identifier must be a CVE identifier such as CVE-2021-44228.",
    );
    expect(
      inFormWords("dkim_selectors.1: must be letters, digits, - and _", { dkim_selectors: "DKIM selectors" }),
    ).toBe("DKIM selectors must be letters, digits, - and _.");
    // A sentence of its own that begins in lower case follows the label after a colon too.
    expect(
      inFormWords("dkim_selectors.1: a DKIM selector is one or more DNS labels, e.g. s1", {
        dkim_selectors: "DKIM selectors",
      }),
    ).toBe("DKIM selectors: A DKIM selector is one or more DNS labels, e.g. s1.");
  });

  it("says another field named inside the words by its label too", () => {
    expect(
      inFormWords("added_until must not be before added_since", {
        added_since: "Added since",
        added_until: "Added until",
      }),
    ).toBe("Added until must not be before added since.");
  });
});
