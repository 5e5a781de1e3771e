// The languages of a country, for the device's languages against the IP address's country (issue 43, item 4): the
// country's most likely language from the runtime's own CLDR data (Intl.Locale("und-DE").maximize() is German), and
// the other languages a large share of its people browse in, for the countries where one is not enough (official
// languages of multilingual countries; English where it is an official or the common second language of the web).
// Primary language subtags (ISO 639-1, as navigator.languages spells them: "de-CH" is "de").

/** Other languages of a country than its CLDR most likely one (which `languagesOf` adds itself). */
const MORE: Record<string, readonly string[]> = {
  // Europe
  BE: ["fr", "de"],
  CH: ["fr", "it", "rm"],
  LU: ["de", "lb"],
  IE: ["ga"],
  MT: ["en"],
  CY: ["tr", "en"],
  FI: ["sv"],
  ES: ["ca", "gl", "eu"],
  AD: ["es", "fr"],
  MC: ["it"],
  LV: ["ru"],
  EE: ["ru"],
  LT: ["ru", "pl"],
  UA: ["ru"],
  BY: ["ru"],
  MD: ["ru"],
  KZ: ["ru"],
  KG: ["ru"],
  GE: ["ru"],
  AM: ["ru"],
  AZ: ["ru"],
  UZ: ["ru"],
  TJ: ["ru"],
  TM: ["ru"],
  XK: ["sr"],
  MK: ["sq"],
  ME: ["sr", "bs", "hr"],
  BA: ["sr", "hr"],
  RS: ["sr"],
  IS: ["en"],
  NO: ["nn", "nb", "no"],
  // The Americas
  US: ["es"],
  CA: ["fr"],
  PR: ["en"],
  PY: ["gn"],
  BO: ["qu", "ay"],
  PE: ["qu"],
  HT: ["ht"],
  // Africa and the Middle East
  MA: ["fr", "zgh", "ber"],
  DZ: ["fr"],
  TN: ["fr"],
  LB: ["fr", "en"],
  EG: ["en"],
  IL: ["ar", "en", "ru"],
  AE: ["en"],
  QA: ["en"],
  BH: ["en"],
  KW: ["en"],
  OM: ["en"],
  SA: ["en"],
  ZA: ["af", "zu", "xh", "st", "tn"],
  NG: ["ha", "yo", "ig"],
  KE: ["sw"],
  TZ: ["en"],
  UG: ["sw"],
  RW: ["en", "fr"],
  CM: ["en"],
  ET: ["en"],
  GH: ["en"],
  MU: ["fr"],
  SC: ["fr"],
  MG: ["fr"],
  // Asia and the Pacific
  IN: ["en", "bn", "te", "mr", "ta", "ur", "gu", "kn", "ml", "or", "pa", "as"],
  PK: ["en"],
  BD: ["en"],
  LK: ["ta", "en"],
  NP: ["en"],
  SG: ["zh", "ms", "ta"],
  MY: ["en", "zh", "ta"],
  PH: ["en"],
  HK: ["en", "yue"],
  MO: ["pt", "yue"],
  TW: ["en"],
  CN: ["yue"],
  NZ: ["mi"],
  FJ: ["fj", "hi"],
};

const cache = new Map<string, ReadonlySet<string>>();

/** The primary language subtags spoken in a country (upper-case ISO 3166-1 alpha-2); empty for an unknown one. */
export function languagesOf(country: string): ReadonlySet<string> {
  const code = country.toUpperCase();
  let set = cache.get(code);
  if (set) return set;
  const out = new Set<string>();
  try {
    const likely = new Intl.Locale(`und-${code}`).maximize();
    // CLDR's answer for a region it does not know is English of the United States: not this country's language.
    if (likely.region === code) out.add(likely.language);
  } catch {
    // not a region subtag
  }
  for (const l of MORE[code] ?? []) out.add(l);
  set = out;
  cache.set(code, set);
  return set;
}

/** The primary subtag of a language tag ("pt-BR" is "pt"), lower-case; null for something that is not a tag. */
export function primaryLanguage(tag: string): string | null {
  const m = /^([a-zA-Z]{2,3})(?:[-_]|$)/.exec(tag.trim());
  return m ? m[1]!.toLowerCase() : null;
}

const names = new Intl.DisplayNames(["en"], { type: "language" });

/** A language subtag in words ("de" is German); the subtag itself when the runtime has no name for it. */
export function languageName(code: string): string {
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}
