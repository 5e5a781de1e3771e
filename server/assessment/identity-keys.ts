// The identifiers an assessment links accounts and counts cards by (issue 45, items 2 and 4), as the counters keep
// them: VelocityPair rows "accounts:<identifier>" -> account (accounts sharing a device, a mailbox, a phone number or
// a card's fingerprint), "links:<account>" -> identifier (what an account used: GET /users/{user_id} follows them back),
// "cards:<device|ip|account>" -> card (distinct cards per device, address, account); and VelocityCount minutes
// "declines:<ip|device|card>" (declines per key). Each kind is a key of its own, so a read scans only the few rows of
// its own kind, never an address's thousands of other pairs. Written with the assessment's event in its one statement
// (./record.ts), read in the velocity statement (./identity-read.ts).
import { canonicalEmail } from "../email/canonical";
import { addressCounterKey } from "../net/ip-parse";
import { parsePhone, type ParsedPhone } from "../phone/parse";
import { cardKeyOf, isDecline, type PaymentInput } from "./payment";

/** What links two accounts, by the kind of their shared identifier. */
export const LINK_KINDS = ["device", "email", "phone", "card"] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

/** The prefix of each kind's identifier in the counters' keys. */
const PREFIX: Record<LinkKind, string> = { device: "device:", email: "mailbox:", phone: "phone:", card: "card:" };

/** An identifier as a pair's `other` ("device:d1", "mailbox:alice@gmail.com") back to its kind and value. */
export function parseIdentifier(other: string): { kind: LinkKind; value: string } | null {
  for (const kind of LINK_KINDS)
    if (other.startsWith(PREFIX[kind])) return { kind, value: other.slice(PREFIX[kind].length) };
  return null;
}

/** An identifier as the counters spell it ("device:d1", "phone:+447400123456"). */
export const identifierOf = (kind: LinkKind, value: string) => PREFIX[kind] + value;
/** The key that lists the accounts of an identifier. */
export const accountsKeyOf = (identifier: string) => `accounts:${identifier}`;
/** The key that lists the identifiers of an account ("user:bob", "email:a@b.c"). */
export const linksKeyOf = (subject: string) => `links:${subject}`;

/** The request's identifiers, as the counters spell them. */
export interface IdentityKeys {
  /** The account (server/assessment/account.ts accountSubject). */
  subject: string | null;
  /**
   * The address as the card and decline counters key it (server/net/ip-parse.ts addressCounterKey): an IPv4 address,
   * or an IPv6 address's /64 ("2001:db8:1:2::/64").
   */
  ip: string | null;
  /** Each link kind's identifier of this request ("device:d1"), when it has one. */
  identifiers: Partial<Record<LinkKind, string>>;
  /** The card ("fp:<fingerprint>" or "bin:<bin>:<last4>"), when a payment was sent. */
  card: string | null;
  /** This payment was declined or failed. */
  declined: boolean;
  /** Whether this assessment links its account to its identifiers (a failed login does not: see pairsOf). */
  links: boolean;
}

/**
 * A phone number as a key: its E.164 form when the numbering plans read it (a national number in `country`:
 * /assess passes `phone_country`, else the IP address's country from the embedded geolocation, ./assess.ts
 * velocityKeysOf), so two spellings of one number are one key. A number the plans do not read (`0000000000`, `+1 555
 * 555 5555`, what people type into a required field) is no key: it is evidence of its own (`phone_invalid`), and
 * keyed it would link every stranger who typed the same placeholder.
 */
export function phoneKeyOf(phone: string | undefined, country?: string): string | null {
  return readPhone(phone, country).key;
}

/** phoneKeyOf with the parse it stands on (the phone evidence reuses it where it would read the number alike). */
export function readPhone(
  phone: string | undefined,
  country?: string,
): { key: string | null; parsed: ParsedPhone | null } {
  if (!phone) return { key: null, parsed: null };
  const parsed = parsePhone(phone, country);
  return { key: parsed.e164, parsed };
}

export function identityKeysOf(a: {
  subject: string | null;
  ip: string | null;
  email: string | null;
  deviceId: string | null;
  phone: string | null;
  payment: PaymentInput | undefined;
  failed: boolean;
}): IdentityKeys {
  const card = a.payment ? cardKeyOf(a.payment) : null;
  const identifiers: Partial<Record<LinkKind, string>> = {};
  if (a.deviceId) identifiers.device = identifierOf("device", a.deviceId);
  if (a.email) identifiers.email = identifierOf("email", canonicalEmail(a.email).normalized);
  if (a.phone) identifiers.phone = identifierOf("phone", a.phone);
  // A card links accounts only by its fingerprint: BIN and last four name a bank's range and four digits, which many
  // of its customers' cards share (two shoppers of one bank with the same last four would read as one card), so
  // without a fingerprint the card is counted (cards and declines per device, address, account) but links no one.
  if (card && a.payment?.fingerprint) identifiers.card = identifierOf("card", card);
  return {
    subject: a.subject,
    ip: a.ip ? addressCounterKey(a.ip) : null,
    identifiers,
    card,
    declined: a.payment ? isDecline(a.payment) : false,
    links: !a.failed,
  };
}

/** The pairs an assessment with these keys adds ([key, other]), and its decline counters' keys. */
export function pairsOf(k: IdentityKeys): { pairs: [string, string][]; declines: string[] } {
  const pairs: [string, string][] = [];
  // A failed login links nothing: a credential-stuffing device would otherwise tie every account it tried together.
  if (k.subject && k.links)
    for (const id of Object.values(k.identifiers)) {
      pairs.push([accountsKeyOf(id), k.subject], [linksKeyOf(k.subject), id]);
    }
  const declines: string[] = [];
  if (k.card) {
    const { device } = k.identifiers;
    if (device) pairs.push([`cards:${device}`, k.card]);
    if (k.ip) pairs.push([`cards:ip:${k.ip}`, k.card]);
    if (k.subject) pairs.push([`cards:${k.subject}`, k.card]);
    if (k.declined) {
      if (k.ip) declines.push(`declines:ip:${k.ip}`);
      if (device) declines.push(`declines:${device}`);
      declines.push(`declines:card:${k.card}`);
    }
  }
  return { pairs, declines };
}

/** An account's name for people: the user_id, else the email address. */
export const accountName = (subject: string) => subject.replace(/^(user|email):/, "");
