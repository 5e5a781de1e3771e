// Domain-name validation for user input. Names are compared and queried in their ASCII (punycode) form.
import { domainToASCII } from "node:url";

export type NameCheck = { ok: true; name: string } | { ok: false; reason: string };

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/**
 * Lower-cases, drops one trailing dot, converts IDNs to punycode and checks RFC 1035 lengths. Underscores are
 * allowed because real lookups need them (_dmarc, selector._domainkey, _sip._tcp). A name whose last label is
 * numeric is refused: it is an address spelling, not a host name.
 */
export function checkDomainName(input: string): NameCheck {
  if (typeof input !== "string") return { ok: false, reason: "A domain name is required." };
  let raw = input.trim().replace(/\.$/, "");
  if (raw.length === 0) return { ok: false, reason: "A domain name is required." };
  if (/[\s/@:?#[\]\\]/.test(raw))
    return { ok: false, reason: "A domain name has no spaces, slashes, ports, @ or brackets." };
  if (/[^\x00-\x7f]/.test(raw)) {
    const ascii = domainToASCII(raw);
    if (!ascii) return { ok: false, reason: "Not a valid internationalised domain name." };
    raw = ascii;
  }
  const name = raw.toLowerCase();
  if (name.length > 253) return { ok: false, reason: "A domain name is at most 253 characters." };
  const labels = name.split(".");
  for (const label of labels) {
    if (!LABEL.test(label)) {
      return {
        ok: false,
        reason: `Invalid label "${label.slice(0, 63)}": 1 to 63 letters, digits, hyphens or underscores, not starting or ending with a hyphen.`,
      };
    }
    // An "xn--" label is punycode for an internationalised label: one that decodes to none ("xn--zz") names no
    // domain anywhere, and the Public Suffix List reader and RDAP refuse it, so it is refused here, before admission.
    if (label.startsWith("xn--") && !domainToASCII(label)) {
      return { ok: false, reason: `Invalid label "${label}": not valid punycode (an "xn--" label must decode).` };
    }
  }
  if (/^\d+$/.test(labels[labels.length - 1]))
    return { ok: false, reason: "The last label is numeric: that is an IP address, not a domain name." };
  return { ok: true, name };
}

export function isValidDomainName(input: string): boolean {
  return checkDomainName(input).ok;
}

/** A host name fit for mail and web: at least two labels and no underscores. */
export function isHostName(name: string): boolean {
  return name.includes(".") && !name.includes("_") && checkDomainName(name).ok;
}
