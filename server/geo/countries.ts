// ISO 3166-1 alpha-2 country codes and their English names (the dashboard's too), from the platform's own region data (ICU through Intl.DisplayNames): a code the
// platform names is a country or territory, minus the codes that name no place a card or an address can be in
// (the EU and eurozone, the UN, "unknown region", ICU's outlying Oceania and its pseudo-locales). Kosovo's XK, which
// ISO leaves user-assigned but banks and processors use, stays in.
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

/** Whether `code` (any case) is an ISO 3166-1 alpha-2 country or territory code. */
export function isCountryCode(code: string): boolean {
  return !NOT_A_PLACE.has(code.toUpperCase()) && countryName(code) !== null;
}
