// ISO 3166-1 alpha-2 country codes, from the platform's own region data (ICU through Intl.DisplayNames): a code the
// platform names is a country or territory, minus the codes that name no place a card or an address can be in
// (the EU and eurozone, the UN, "unknown region", ICU's outlying Oceania and its pseudo-locales). Kosovo's XK, which
// ISO leaves user-assigned but banks and processors use, stays in.
const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
const NOT_A_PLACE = new Set(["EU", "EZ", "UN", "ZZ", "QO", "XA", "XB"]);

/** Whether `code` (any case) is an ISO 3166-1 alpha-2 country or territory code. */
export function isCountryCode(code: string): boolean {
  const c = code.toUpperCase();
  if (!/^[A-Z]{2}$/.test(c) || NOT_A_PLACE.has(c)) return false;
  try {
    return names.of(c) !== undefined;
  } catch {
    return false;
  }
}
