// The Assess form's own check (walk #20): every field's problem at once, and an empty payment amount is said to be
// required, not "must be a whole number"; a card number typed into the BIN field is said before anything is sent.
import { describe, expect, it } from "vitest";
import { EMPTY, toAssessRequest, type AssessFields } from "../../app/dashboard/assess/AssessForm";

const form = (f: Partial<AssessFields>): AssessFields => ({ ...EMPTY, ip: "203.0.113.7", ...f });

describe("toAssessRequest", () => {
  it("a checkout with only a 16-digit Card BIN: the BIN, the last four, the required amount and currency, at once", () => {
    expect(toAssessRequest(form({ event: "checkout", pay_bin: "4111111111111111" }))).toBe(
      "Card BIN holds more digits than a BIN, like a full card number: enter only the card's first 6 to 8 digits. " +
        "Card last four must be the card's last 4 digits. " +
        "Payment amount is required with a payment, in minor units such as 4999 for 49.99. " +
        "Payment currency is required with a payment: three letters such as EUR.",
    );
  });

  it("a payment amount that is not whole minor units, beside a bad billing country", () => {
    const r = toAssessRequest(
      form({
        event: "checkout",
        billing_country: "Germany",
        pay_bin: "411111",
        pay_last4: "1111",
        pay_amount: "49.99",
        pay_currency: "EUR",
      }),
    );
    expect(r).toBe(
      "Billing country must be a two-letter country code such as DE. Payment amount must be a whole number of minor units, such as 4999 for 49.99.",
    );
  });

  it("a complete card attempt is sent", () => {
    expect(
      toAssessRequest(
        form({ event: "checkout", pay_bin: "411111", pay_last4: "1111", pay_amount: "4999", pay_currency: "eur" }),
      ),
    ).toEqual({
      event: "checkout",
      ip: "203.0.113.7",
      payment: { bin: "411111", last4: "1111", amount: 4999, currency: "eur", status: "succeeded" },
    });
  });
});
