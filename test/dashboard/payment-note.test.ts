// The card part of an assessment's answer says what the card's first digits told and what they could not, in a
// user's words: the API's `note` is written for whoever runs the service ("no BIN table is shipped", walk of the
// dashboard) and is not shown. The words follow the answer's fields (brand_name, issuer_country, funding): what it
// gives is said, what it leaves null is "unknown", as the answer itself says, not a claim about what was looked up.
import { describe, expect, it } from "vitest";
import { cardNote } from "../../app/dashboard/_components/answers/card-words";
import { forUsers } from "../../app/dashboard/_components/answers/user-text";
import { paymentSummary } from "../../server/assessment/identity-evidence";

describe("cardNote", () => {
  // What the answer says today: issuer_country and funding null, "unknown" in its note; the words follow the fields.
  it("a known brand, with the issuer's country and funding unknown as the answer says them", () => {
    const text = cardNote({ brand_name: "Visa", issuer_country: null, funding: null });
    expect(text).toBe(
      "Visa, known from the card's first digits. The issuing bank's country and whether the card is credit, debit or prepaid are unknown.",
    );
    expect(text).not.toMatch(/BIN table|shipped|looked up/);
  });

  it("an unknown brand says so", () => {
    expect(cardNote({ brand_name: null, issuer_country: null, funding: null })).toBe(
      "The card's brand is not known from its first digits. The issuing bank's country and whether the card is credit, debit or prepaid are unknown.",
    );
  });

  it("says the issuer's country and the funding when the answer gives them, and only the missing one as unknown", () => {
    expect(cardNote({ brand_name: "Visa", issuer_country: "FR", funding: "debit" })).toBe(
      "Visa, known from the card's first digits. A debit card from a bank in France (FR).",
    );
    expect(cardNote({ brand_name: "Mastercard", issuer_country: "DE", funding: null })).toBe(
      "Mastercard, known from the card's first digits. Issued by a bank in Germany (DE); whether it is credit, debit or prepaid is unknown.",
    );
    expect(cardNote({ brand_name: "Visa", issuer_country: null, funding: "prepaid" })).toBe(
      "Visa, known from the card's first digits. A prepaid card; the issuing bank's country is unknown.",
    );
  });

  it("a saved report of an older assessment without the two fields reads as unknown", () => {
    expect(cardNote({ brand_name: "Visa" })).toBe(
      "Visa, known from the card's first digits. The issuing bank's country and whether the card is credit, debit or prepaid are unknown.",
    );
  });
});

describe("the API's note in the answer's Details", () => {
  it("is shown without the operator's reason, keeping what is unknown", () => {
    const { note } = paymentSummary({
      bin: "411111",
      last4: "1111",
      amount: 4999,
      currency: "EUR",
      status: "declined",
    } as never);
    expect(note).toContain("(no BIN table is shipped)");
    expect(forUsers(note)).toBe(
      "Brand Visa from the BIN's range; the issuing bank's country and whether the card is credit, debit or prepaid are unknown.",
    );
  });
});
