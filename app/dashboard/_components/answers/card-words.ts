// What a card attempt's first digits told about the card, in a user's words. The API's `note` says the same for
// whoever runs the service ("no BIN table is shipped"), which a user can do nothing with; these words are built from
// the answer's fields instead, so a saved report of an older assessment reads the same.

/** "Visa, known from the card's first digits. The issuing bank's country and ... are not looked up." */
export function cardNote(payment: { brand_name: string | null }): string {
  const brand = payment.brand_name
    ? `${payment.brand_name}, known from the card's first digits.`
    : "The card's brand is not known from its first digits.";
  // issuer_country and funding are always null: the service looks neither up (server/assessment/payment.ts).
  return `${brand} The issuing bank's country and whether the card is credit, debit or prepaid are not looked up.`;
}
