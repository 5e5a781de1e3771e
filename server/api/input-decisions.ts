// One charging rule for every metered route: an answer that can be decided from the request alone (a private or
// reserved address where the route needs a public one, an RFC 6761 special-use name) is given before admission and
// costs nothing; whatever needed a provider counts. Routes declare these decisions in `meteredProcedure({ decides })`
// instead of special-casing them, and the OpenAPI description lists them from the same declaration (contract-text.ts).
import { reservedAsnReason } from "../asn/reserved";
import { checkDomainName } from "../dns/names";
import { AppError, type ErrorCode } from "../errors";
import { parseHostAndPort } from "../net";
import { nonPublicAddressReason, nonPublicReverseNameReason, specialUseNameReason } from "../net/special-use";

/** An answer decided from the validated input alone: its code, when it applies (for the docs), and the check. */
export interface InputDecision<T> {
  code: ErrorCode;
  /** "a private, reserved or special-use address" (the docs say "404 NOT_FOUND for <when>"). */
  when: string;
  /** Why the input gets this answer, or null when the lookup must run. */
  check: (input: T) => string | null;
}

/** 404 NOT_FOUND for an IP address outside public space (RDAP and abuse contacts need a registered one). */
export function publicAddress<T>(pick: (input: T) => string): InputDecision<T> {
  return {
    code: "NOT_FOUND",
    when: "a private, reserved or special-use address",
    check: (input) => nonPublicAddressReason(pick(input)),
  };
}

/**
 * 404 DOMAIN_NOT_FOUND for a special-use name (RFC 6761: .invalid, .test, .example, .localhost, ...), declared by every
 * route that takes a host name, and decided before any preflight so that no resolver is asked about one.
 */
export function publicName<T>(pick: (input: T) => string): InputDecision<T> {
  return {
    code: "DOMAIN_NOT_FOUND",
    when: "a special-use name (`localhost` or a name under `.invalid`, `.test`, `.example`, `.localhost`, `.local`, `.onion`, `.alt`, `.internal` or `.home.arpa` by default; SERVICE_SPECIAL_USE_NAMES), or the reverse name (`in-addr.arpa`, `ip6.arpa`) of addresses that are not public",
    check: (input) => {
      const raw = pick(input);
      const parsed = parseHostAndPort(raw);
      if (parsed)
        return parsed.address ? null : (specialUseNameReason(parsed.host) ?? nonPublicReverseNameReason(parsed.host));
      // A DNS name that is no host name (`_dmarc.foo.internal`, an SRV owner name) is under its suffix all the same.
      const name = checkDomainName(raw);
      return name.ok ? (specialUseNameReason(name.name) ?? nonPublicReverseNameReason(name.name)) : null;
    },
  };
}

/** 404 NOT_FOUND for an AS number no registry delegates (private use, documentation, reserved). */
export function delegableAsn<T>(pick: (input: T) => number): InputDecision<T> {
  return {
    code: "NOT_FOUND",
    when: "a private-use, documentation or reserved AS number (RFC 6996, RFC 5398, RFC 7300)",
    check: (input) => reservedAsnReason(pick(input)),
  };
}

/**
 * What a route declares: the input field that must be a public address, a name with a public registration, or an AS
 * number a registry can have delegated.
 */
export interface DecidedFields<T> {
  publicAddress?: (input: T) => string;
  publicName?: (input: T) => string;
  delegableAsn?: (input: T) => number;
}

/** The declared decisions, in a fixed order. */
export function decisionsOf<T>(fields: DecidedFields<T>): InputDecision<T>[] {
  const out: InputDecision<T>[] = [];
  if (fields.publicAddress) out.push(publicAddress(fields.publicAddress));
  if (fields.publicName) out.push(publicName(fields.publicName));
  if (fields.delegableAsn) out.push(delegableAsn(fields.delegableAsn));
  return out;
}

/** The first decision that applies, as the error to answer with, or null. */
export function decide<T>(decisions: readonly InputDecision<T>[], input: T): AppError | null {
  for (const d of decisions) {
    const reason = d.check(input);
    if (reason)
      // Every reason begins with the name, address or AS number as sent: written as it is ("foo.test", never
      // "Foo.test"), since a name's case is part of what the caller reads back.
      return new AppError(d.code, `${reason}. Decided from the request alone; no unit was charged.`);
  }
  return null;
}

/** "404 NOT_FOUND for a private, reserved or special-use address" for each decision, for the docs. */
export function decisionSentences<T>(decisions: readonly InputDecision<T>[]): string[] {
  return decisions.map((d) => `${d.code} for ${d.when}`);
}
