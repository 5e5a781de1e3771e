// What a named list may hold, by its kind: every value is normalised here on the way in (an item) and on the way
// to a lookup (the value a rule tests), so "Alice@Example.com" saved matches "alice@example.com" assessed, and an
// ip list's "203.0.113.7/24" is saved as the range "203.0.113.0/24" it means.
import { formatCidr, parseCidr, parseIpStrict } from "../net/ip-parse";

export const LIST_KINDS = ["ip", "email", "email_domain", "user", "device", "country", "asn"] as const;
export type ListKind = (typeof LIST_KINDS)[number];

export const LIST_NAME_PATTERN = /^[a-z0-9_]{1,64}$/;
export const MAX_VALUE_LENGTH = 254;

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

export type Normalised = { ok: true; value: string } | { ok: false; reason: string };

const bad = (reason: string): Normalised => ({ ok: false, reason });

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
        return ip ? { ok: true, value: ip.address } : bad("is not an IP address or CIDR range");
      }
      const range = parseCidr(text);
      return range ? { ok: true, value: formatCidr(range) } : bad("is not an IP address or CIDR range");
    }
    case "email": {
      const v = text.toLowerCase();
      const at = v.lastIndexOf("@");
      if (at < 1 || !DOMAIN.test(v.slice(at + 1)) || /\s/.test(v)) return bad("is not an email address");
      return { ok: true, value: v };
    }
    case "email_domain": {
      const v = text.toLowerCase().replace(/^@/, "").replace(/\.$/, "");
      return DOMAIN.test(v) ? { ok: true, value: v } : bad("is not a domain name");
    }
    case "country": {
      const v = text.toUpperCase();
      return /^[A-Z]{2}$/.test(v) ? { ok: true, value: v } : bad("is not a two-letter country code");
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
