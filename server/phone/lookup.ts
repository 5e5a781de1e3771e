// GET /phone/{number}: what the numbering plan says of a number (./parse.ts), with the data it was read from.
import { parsePhone, PHONE_SOURCE } from "./parse";
import type { PhoneLookup } from "./schemas";

export function lookupPhone(number: string, country: string | null | undefined): PhoneLookup {
  const p = parsePhone(number, country);
  return {
    number: number.trim(),
    ...p,
    sources: [{ ...PHONE_SOURCE }],
    checked_at: new Date().toISOString(),
  };
}

/** The lookup history's target: the country calling code's first digits and the last two, never the whole number. */
export function maskedPhone(e164: string | null): string {
  return e164 ? `${e164.slice(0, 3)}…${e164.slice(-2)}` : "(invalid number)";
}
