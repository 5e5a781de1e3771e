// A resolver that answers NXDOMAIN for gmail.com is broken (a captive portal, a filtering or misconfigured
// resolver), not evidence about the user: when a domain on the shipped free-mail list, or one of the domains most
// addresses and sites use, "does not exist", the answer says the resolver is unreliable and counts nothing against
// the user, as the DNSBL client checks its zones' test points before believing them.
import { isFreeProviderDomain } from "./feed-lists";
import { COMMON_DOMAINS } from "./typo";

const TOP_SITES = [
  "google.com",
  "youtube.com",
  "facebook.com",
  "wikipedia.org",
  "amazon.com",
  "apple.com",
  "microsoft.com",
  "instagram.com",
  "linkedin.com",
  "twitter.com",
  "x.com",
  "netflix.com",
  "github.com",
  "cloudflare.com",
];

const KNOWN = new Set([...COMMON_DOMAINS, ...TOP_SITES]);

/** True for a domain that certainly exists on the public DNS (free-mail list, top sites). */
export function certainlyExists(domain: string): boolean {
  const d = domain.toLowerCase().replace(/\.$/, "");
  return KNOWN.has(d) || isFreeProviderDomain(d);
}

/** The reason given instead of "does not exist" for such a domain. */
export function unreliableResolverReason(domain: string): string {
  return `The resolver answered that ${domain} does not exist, but it is a well-known domain: the resolver is unreliable, so nothing is concluded from it.`;
}
