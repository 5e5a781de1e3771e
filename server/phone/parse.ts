// Phone numbers (issue 45, item 3): whether a number is valid, its E.164 form, country and line type, from
// libphonenumber-js with its `max` metadata (the default metadata cannot tell a number's type). Offline: the metadata
// ships in the package (MIT; the metadata is Google libphonenumber's, Apache-2.0). /assess and GET /phone/{number}
// both read a number through parsePhone, and the number the other parts of an assessment key on is its `e164`.
import { createRequire } from "node:module";
import path from "node:path";
import { getCountries, parsePhoneNumberFromString, type CountryCode, type NumberType } from "libphonenumber-js/max";

export const PHONE_TYPES = [
  "mobile",
  "fixed_line",
  "fixed_line_or_mobile",
  "voip",
  "toll_free",
  "premium_rate",
  "shared_cost",
  "personal",
  "pager",
  "uan",
  "unknown",
] as const;
export type PhoneType = (typeof PHONE_TYPES)[number];

export interface ParsedPhone {
  /** The number exists in its country's numbering plan (length and prefix). */
  valid: boolean;
  /** The number in E.164 (`+` and digits), or null when it is not valid. */
  e164: string | null;
  /** ISO 3166-1 alpha-2 of the numbering plan, or null (invalid, or a non-geographic +800/+808/+870/+881/+882/+883/+979 number). */
  country: string | null;
  /** The line type the numbering plan gives the number: `unknown` when invalid or not told apart. */
  type: PhoneType;
  /** The number has a possible length for its country (a weaker test than `valid`). */
  possible: boolean;
}

/** The longest input read as a phone number: E.164 has at most 15 digits, and formatting adds a few characters. */
export const MAX_PHONE_INPUT = 40;

/** Digits with the punctuation people write numbers with: spaces, dots, dashes, slashes, brackets and a leading +. */
const PHONE_LIKE = /^\+?[\d\s().\-/]+$/;

const TYPE: Record<NumberType & string, PhoneType> = {
  MOBILE: "mobile",
  FIXED_LINE: "fixed_line",
  FIXED_LINE_OR_MOBILE: "fixed_line_or_mobile",
  VOIP: "voip",
  TOLL_FREE: "toll_free",
  PREMIUM_RATE: "premium_rate",
  SHARED_COST: "shared_cost",
  PERSONAL_NUMBER: "personal",
  PAGER: "pager",
  UAN: "uan",
  VOICEMAIL: "unknown",
};

const COUNTRIES = new Set<string>(getCountries());

/** The country code libphonenumber-js knows, upper-cased, or null. */
export function phoneCountry(country: string | null | undefined): CountryCode | null {
  const c = country?.trim().toUpperCase();
  return c && COUNTRIES.has(c) ? (c as CountryCode) : null;
}

/**
 * Why `input` (with `country`, for a national number) cannot be read as a phone number at all, or null: not a
 * phone-like string, too long, too few digits, an unknown country code, or a national number without a country.
 * An input that passes may still be an invalid number: that is an answer (`valid: false`), not malformed input.
 */
export function phoneInputProblem(input: string, country?: string | null): string | null {
  const text = input.trim();
  if (text.length > MAX_PHONE_INPUT) return `is longer than ${MAX_PHONE_INPUT} characters`;
  if (!PHONE_LIKE.test(text))
    return "is not a phone number: only digits, spaces, ( ) . - / and a leading + are allowed";
  const digits = text.replace(/\D/g, "").length;
  if (digits < 2) return "is not a phone number: it has fewer than 2 digits";
  if (digits > 17) return "is not a phone number: it has more than 17 digits (E.164 allows 15)";
  // The country is read only for a national number; beside a number with +, whatever it says is ignored.
  if (text.startsWith("+")) return null;
  if (country != null && country !== "" && !phoneCountry(country))
    return `has an unknown country "${country}": send an ISO 3166-1 alpha-2 code such as US or GB`;
  if (!phoneCountry(country))
    return "is a national number without a country: send it in E.164 (+ and the country calling code) or with a country";
  return null;
}

const INVALID: ParsedPhone = { valid: false, e164: null, country: null, type: "unknown", possible: false };

/**
 * The number `input` names: E.164 (`+14155550123`), or a national number read in `defaultCountry`'s plan. Never
 * throws: input that cannot be read is an invalid number (see phoneInputProblem for telling the two apart).
 */
export function parsePhone(input: string, defaultCountry?: string | null): ParsedPhone {
  if (phoneInputProblem(input, defaultCountry)) return INVALID;
  const n = parsePhoneNumberFromString(input.trim(), phoneCountry(defaultCountry) ?? undefined);
  if (!n) return INVALID;
  const possible = n.isPossible();
  if (!n.isValid()) return { ...INVALID, possible };
  const t = n.getType();
  return { valid: true, e164: n.number, country: n.country ?? null, type: (t && TYPE[t]) ?? "unknown", possible };
}

const dependency = (name: string) =>
  (createRequire(path.join(process.cwd(), "package.json"))(`${name}/package.json`) as { version: string }).version;

/** The data behind parsePhone, for an answer's `sources`. */
export const PHONE_SOURCE = {
  name: "libphonenumber-js",
  version: dependency("libphonenumber-js"),
  metadata: "max",
  license: "MIT (metadata from Google libphonenumber, Apache-2.0)",
} as const;
