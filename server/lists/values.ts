// What a named list may hold, by its kind: every value is normalised here on the way in (an item) and on the way
// to a lookup (the value a rule tests), so "Alice@Example.com" saved matches "alice@example.com" assessed, and an
// ip list's "203.0.113.7/24" is saved as the range "203.0.113.0/24" it means. A value is checked by the parser
// /assess uses for the same field (addresses, email addresses, user_id and device_id lengths), so an item /assess
// would refuse, and that could therefore never match, is refused when it is added.
import { parseAddress } from "../email/syntax";
import { countryCodeOf } from "../countries";
import { formatCidr, parseCidr, parseIpStrict, unmappedAddress, unmappedRange } from "../net/ip-parse";

export const LIST_KINDS = ["ip", "email", "email_domain", "user", "device", "country", "asn"] as const;
export type ListKind = (typeof LIST_KINDS)[number];

export const LIST_NAME_PATTERN = /^[a-z0-9_]{1,64}$/;
/** The longest value of any kind: /assess takes a user_id or device_id of up to 256 characters. */
export const MAX_VALUE_LENGTH = 256;
/** Email addresses and domains: RFC 5321's 254 octets, as /assess checks them. */
const MAX_ADDRESS_LENGTH = 254;

export type Normalised = { ok: true; value: string } | { ok: false; reason: string };

const bad = (reason: string): Normalised => ({ ok: false, reason });
/** The email parser's sentence as a clause: "The domain ... labels." -> "the domain ... labels". */
const clause = (sentence: string) => sentence.charAt(0).toLowerCase() + sentence.slice(1).replace(/\.$/, "");

/** The canonical text of a value for a list of `kind`, or why it cannot be one. */
export function normaliseValue(kind: ListKind, raw: unknown): Normalised {
  if ((typeof raw === "number" || typeof raw === "bigint") && kind === "asn") raw = String(raw);
  if (typeof raw !== "string") return bad("is not a string");
  const text = raw.trim();
  if (text === "") return bad("is empty");
  if (text.length > MAX_VALUE_LENGTH) return bad(`is longer than ${MAX_VALUE_LENGTH} characters`);
  switch (kind) {
    case "ip": {
      if (!text.includes("/")) {
        const ip = parseIpStrict(text);
        return ip ? { ok: true, value: unmappedAddress(ip.address) } : bad("is not an IP address or CIDR range");
      }
      const range = parseCidr(text);
      return range ? { ok: true, value: formatCidr(unmappedRange(range)) } : bad("is not an IP address or CIDR range");
    }
    case "email": {
      // The fact rules test is the address /assess accepted, lower-cased (email.address).
      if (text.length > MAX_ADDRESS_LENGTH) return bad(`is longer than ${MAX_ADDRESS_LENGTH} characters`);
      const p = parseAddress(text);
      return p.valid ? { ok: true, value: text.toLowerCase() } : bad(`is not an email address: ${clause(p.reason)}`);
    }
    case "email_domain": {
      // The fact rules test is the domain of an address /assess accepted (email.domain), as its parser spells it.
      const v = text.replace(/^@/, "");
      if (v.length > MAX_ADDRESS_LENGTH || v.includes("@")) return bad("is not a domain name");
      const p = parseAddress(`x@${v}`);
      return p.valid
        ? { ok: true, value: p.domain }
        : bad(`is not a domain name: ${clause(p.reason.replace(/^Invalid domain: /, ""))}`);
    }
    case "country": {
      // The fact rules test is billing_country as /assess read it, or the IP's country: judged and written as /assess
      // reads a code (countryCodeOf), so XX or EU, which no fact can be, are refused, and UK is kept as GB.
      const v = text.toUpperCase();
      if (!/^[A-Z]{2}$/.test(v)) return bad("is not a two-letter country code");
      const code = countryCodeOf(v);
      return code ? { ok: true, value: code } : bad("names no country");
    }
    case "asn": {
      const m = /^(?:AS)?(\d{1,10})$/i.exec(text);
      const n = m ? Number(m[1]) : NaN;
      return Number.isInteger(n) && n >= 0 && n <= 4294967295
        ? { ok: true, value: String(n) }
        : bad("is not an AS number (e.g. 64496 or AS64496)");
    }
    case "user":
    case "device":
      return /[\u0000-\u001f]/.test(text) ? bad("contains control characters") : { ok: true, value: text };
  }
}

// IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are the same host as a.b.c.d: both sides of a list are written in the
// IPv4 form, the item when it is stored and the value a rule tests (server/net/ip-parse.ts unmaps them).
export { unmappedAddress, unmappedRange };
