// The card part of an assessment's answer says what the card's first digits told and what they could not, in a
// user's words: the API's `note` is written for whoever runs the service ("no BIN table is shipped", walk of the
// dashboard) and is not shown.
import { describe, expect, it } from "vitest";
import { cardNote } from "../../app/dashboard/_components/answers/card-words";
import { forUsers } from "../../app/dashboard/_components/answers/user-text";
import { paymentSummary } from "../../server/assessment/identity-evidence";

describe("cardNote", () => {
  it("a known brand: said with what is not looked up, without the operator's reason", () => {
    const text = cardNote({ brand_name: "Visa" });
    expect(text).toBe(
      "Visa, known from the card's first digits. The issuing bank's country and whether the card is credit, debit or prepaid are not looked up.",
    );
    expect(text).not.toMatch(/BIN table|shipped/);
  });

  it("an unknown brand says so", () => {
    expect(cardNote({ brand_name: null })).toBe(
      "The card's brand is not known from its first digits. The issuing bank's country and whether the card is credit, debit or prepaid are not looked up.",
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
