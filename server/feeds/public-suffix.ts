// Registrable domain ("eTLD+1") of a host name by the Public Suffix List: www.example.co.uk -> example.co.uk.
import { domainToASCII } from "node:url";
import { publicSuffixFeed, type PublicSuffixRules } from "./definitions/public-suffix";
import { getFeedSync } from "./loader";

export interface SuffixSplit {
  /** The host in lower-case ASCII (punycode), without a trailing dot. */
  host: string;
  publicSuffix: string;
  /** null when the host is itself a public suffix (e.g. "co.uk"). */
  registrableDomain: string | null;
}

function publicSuffixOf(labels: string[], psl: PublicSuffixRules): number {
  // Index of the first label of the longest matching rule; the implicit rule "*" matches the last label.
  for (let i = 0; i < labels.length; i++) {
    const candidate = labels.slice(i).join(".");
    if (psl.exceptions.has(candidate)) return i + 1;
    if (psl.rules.has(candidate)) return i;
    if (i + 1 < labels.length && psl.wildcards.has(labels.slice(i + 1).join("."))) return i;
  }
  return labels.length - 1;
}

/** Splits a host name by the Public Suffix List; null for something that is not a host name. */
export function splitPublicSuffix(hostname: string): SuffixSplit | null {
  const host = domainToASCII(hostname.trim().replace(/\.$/, "")).toLowerCase();
  if (!host || host.length > 253) return null;
  const labels = host.split(".");
  if (labels.some((l) => l.length === 0 || l.length > 63)) return null;
  const psl = getFeedSync(publicSuffixFeed).data;
  const at = publicSuffixOf(labels, psl);
  return {
    host,
    publicSuffix: labels.slice(at).join("."),
    registrableDomain: at > 0 ? labels.slice(at - 1).join(".") : null,
  };
}

export function getRegistrableDomain(hostname: string): string | null {
  return splitPublicSuffix(hostname)?.registrableDomain ?? null;
}
