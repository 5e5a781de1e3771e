// What a card attempt's first digits told about the card, in a user's words. The API's `note` says the same for
// whoever runs the service ("no BIN table is shipped"), which a user can do nothing with; these words are built from
// the answer's fields instead (brand_name, issuer_country, funding), so they say what the answer says: a field it
// gives is said, one it leaves null (or a saved report of an older assessment lacks) is "unknown".
import { countryName } from "../../../../server/countries";

type CardFacts = { brand_name: string | null; issuer_country?: string | null; funding?: string | null };

const inCountry = (code: string) => `${countryName(code) ?? code} (${code})`;
const aCard = (funding: string) => `${/^[aeiou]/i.test(funding) ? "An" : "A"} ${funding} card`;

/** "Visa, known from the card's first digits. The issuing bank's country and ... are unknown." */
export function cardNote(payment: CardFacts): string {
  const brand = payment.brand_name
    ? `${payment.brand_name}, known from the card's first digits.`
    : "The card's brand is not known from its first digits.";
  const country = payment.issuer_country ?? null;
  const funding = payment.funding ?? null;
  let rest: string;
  if (country && funding) rest = `${aCard(funding)} from a bank in ${inCountry(country)}.`;
  else if (country)
    rest = `Issued by a bank in ${inCountry(country)}; whether it is credit, debit or prepaid is unknown.`;
  else if (funding) rest = `${aCard(funding)}; the issuing bank's country is unknown.`;
  else rest = "The issuing bank's country and whether the card is credit, debit or prepaid are unknown.";
  return `${brand} ${rest}`;
}
