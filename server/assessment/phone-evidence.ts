// What the request's phone number and its password verdict say (issue 45, items 3 and 5): the number read with the
// numbering plans (server/phone/parse.ts), a national number in `phone_country` or else the IP address's country; an
// invalid number, or one from another country than the address, is a signal (never a 400: a malformed value was
// refused by the input schema already). `password_compromised` is the caller's own verdict (e.g. from GET
// /passwords/range/{prefix}): the password never reaches us. No I/O, so decide() runs it.
import { countryInSentence } from "../countries";
import { parsePhone, phoneCountry, type ParsedPhone } from "../phone/parse";
import { SIGNALS } from "../scoring/signal-weights";
import type { AssessRequest, Signal, SourceRef } from "./schemas";

export interface PhoneEvidence {
  phone: (ParsedPhone & { number: string; country_matches_ip: boolean | null }) | null;
  signals: Signal[];
  source: SourceRef | null;
}

/** A phone number as read with the numbering plans, and the country it was read in (null: none). */
export interface PhoneRead {
  parsed: ParsedPhone;
  readIn: string | null;
}

/**
 * Countries whose numbers are one numbering plan's with a larger neighbour's, where people live with one and use the
 * other's connections: the Crown Dependencies in the UK's +44, the US territories in the US's +1 (Canada and the
 * Caribbean nations of +1 are countries of their own), Åland in Finland's, Svalbard in Norway's, Christmas and Cocos
 * Islands in Australia's, the Vatican in Italy's, Western Sahara in Morocco's.
 */
const SAME_PLAN: readonly (readonly string[])[] = [
  ["GB", "GG", "JE", "IM"],
  ["US", "PR", "VI", "GU", "AS", "MP"],
  ["FI", "AX"],
  ["NO", "SJ"],
  ["AU", "CX", "CC"],
  ["IT", "VA"],
  ["MA", "EH"],
];

/** Whether a number of `phone`'s country fits an address in `ip`'s: the same country, or one numbering plan's. */
export function phoneFitsCountry(phone: string, ip: string): boolean {
  return phone === ip || SAME_PLAN.some((g) => g.includes(phone) && g.includes(ip));
}

const named = (code: string) => countryInSentence(code);

/**
 * `known`: the number as the request's keys read it (./assess.ts velocityKeysOf: in `phone_country`, else a national
 * number in the address's country by the embedded geolocation), reused where reading it here gives the same (the
 * same country, or an international number and a country the plans know), instead of parsing it again (a tenth of a
 * millisecond with the max metadata).
 */
export function phoneEvidence(req: AssessRequest, ipCountry: string | null, known?: PhoneRead | null): PhoneEvidence {
  const signals: Signal[] = [];
  if (req.password_compromised === true)
    signals.push({
      code: "password_compromised",
      weight: SIGNALS.password_compromised.weight,
      reason:
        "You reported the password is on a list of common or breached passwords: at sign-up ask for another one; at login, a correct common password is what credential stuffing and guessing try first, so ask for a second factor or a reset.",
      evidence: ["request"],
    });
  if (!req.phone) return { phone: null, signals, source: null };
  const number = req.phone.trim();
  const readIn = req.phone_country ?? ipCountry;
  const same =
    known != null &&
    number === req.phone &&
    (known.readIn === readIn || (number.startsWith("+") && phoneCountry(readIn) !== null));
  const p = same ? known.parsed : parsePhone(number, readIn);
  const matches = p.valid && p.country && ipCountry ? phoneFitsCountry(p.country, ipCountry) : null;
  if (!p.valid && !number.startsWith("+") && !readIn) {
    // Read in no plan at all: whether the number exists is unknown, so the reason must not say it cannot be called.
    signals.push({
      code: "phone_invalid",
      weight: SIGNALS.phone_invalid.weight,
      reason: `The phone number ${number} is a national number, and neither phone_country nor the IP address's country says which plan to read it in: it could not be checked. Send phone_country, or the number in E.164 (+ and the country calling code).`,
      evidence: ["libphonenumber-js"],
    });
  } else if (!p.valid) {
    const why = number.startsWith("+")
      ? "is not a valid number in any numbering plan"
      : req.phone_country
        ? `is not a valid number in the numbering plan of ${named(req.phone_country)} (phone_country)`
        : `is not a valid number in the numbering plan of ${named(readIn!)}, the IP address's country (send phone_country to read it in another)`;
    signals.push({
      code: "phone_invalid",
      weight: SIGNALS.phone_invalid.weight,
      reason: `The phone number ${number} ${why}: it cannot receive a call or an SMS code. Ask for a number that works.`,
      evidence: ["libphonenumber-js"],
    });
  } else if (matches === false) {
    signals.push({
      code: "phone_country_mismatch",
      weight: SIGNALS.phone_country_mismatch.weight,
      reason: `The phone number is from ${named(p.country!)} but the IP address is in ${named(ipCountry!)}: a traveller, or a number bought abroad.`,
      evidence: ["libphonenumber-js", "geo"],
    });
  }
  return {
    phone: { number, ...p, country_matches_ip: matches },
    signals,
    source: { name: "libphonenumber-js", origin: "shipped", fetched_at: null },
  };
}
