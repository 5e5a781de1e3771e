// ISO 3166-1 alpha-2 country codes and their English names (the dashboard's too), from the platform's own region data (ICU through Intl.DisplayNames): a code the
// platform names is a country or territory, minus the codes that name no place a card or an address can be in
// (the EU and eurozone, the UN, "unknown region", ICU's outlying Oceania and its pseudo-locales). Kosovo's XK, which
// ISO leaves user-assigned but banks and processors use, stays in. An area of its own at the bottom of server/ (it
// imports nothing), as /assess, the geolocation, named lists and rule conditions all judge or name a code by it.
const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
const NOT_A_PLACE = new Set(["EU", "EZ", "UN", "ZZ", "QO", "XA", "XB"]);

/** The English name of an ISO 3166-1 alpha-2 code (any case), or null when the platform names no region by it. */
export function countryName(code: string): string | null {
  const c = code.toUpperCase();
  if (!/^[A-Z]{2}$/.test(c)) return null;
  try {
    return names.of(c) ?? null;
  } catch {
    return null;
  }
}

// Names English writes with "the" in a sentence ("from the United States", "in the Netherlands"): the plural and
// descriptive ones (…Islands, …Republic, …Territories, United …), and a few more by name.
const WITH_THE =
  /^(United |U\.S\. |Netherlands$|Caribbean Netherlands$|Philippines$|Bahamas$|Gambia$|Maldives$|Comoros$|Seychelles$|Isle of Man$|British Indian Ocean Territory$)|(Islands|Republic|Territories)$/;

/**
 * A country's name as a sentence says it, for reasons a person reads: "the United States", "the Netherlands",
 * "Canada"; the code itself when the platform names no region by it.
 */
export function countryInSentence(code: string): string {
  const name = countryName(code);
  if (name === null) return code;
  return WITH_THE.test(name) ? `the ${name}` : name;
}

/**
 * Whether `code` (any case) is an ISO 3166-1 alpha-2 country or territory code: the one check of a country code a
 * request sends (/assess's billing_country, a country list's items, a rule's country conditions). ICU also names the
 * codes it replaced by their successor's region (UK is GB, SU is RU, DD is DE, YU is RS): those are no ISO code, and
 * a billing country "UK" would never equal the IP's "GB", so a code counts only when it is its own canonical form.
 */
export function isCountryCode(code: string): boolean {
  const c = code.toUpperCase();
  if (NOT_A_PLACE.has(c) || countryName(c) === null) return false;
  try {
    return Intl.getCanonicalLocales(`und-${c}`)[0] === `und-${c}`;
  } catch {
    return false;
  }
}

/**
 * The country code a request's `code` (any case) stands for, upper-cased; null when it names no country. ISO 3166-1
 * reserves UK exceptionally for the United Kingdom, whose code is GB, and UK is what billing addresses often say: it
 * is read as GB, so that it matches the IP's country, lists and rules. The codes ISO withdrew (SU, DD, YU) stay
 * refused: each stood for a country that no longer is one.
 */
export function countryCodeOf(code: string): string | null {
  const c = code.toUpperCase();
  if (c === "UK") return "GB";
  return isCountryCode(c) ? c : null;
}
