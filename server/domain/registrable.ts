// Registrable domain (eTLD+1) of a host name, public-suffix aware. tldts carries the Public Suffix List (ICANN and
// private sections); private suffixes count, so "shop.github.io" is its own registrable domain, as browsers see it.
import { parse } from "tldts";
import { checkDomainName } from "../dns/names";

export type RegistrableName = {
  /** The input as a lowercase ASCII name. */
  hostname: string;
  registrableDomain: string;
  publicSuffix: string;
  /** The suffix comes from the PSL's private section (e.g. github.io), not from ICANN. */
  privateSuffix: boolean;
  /** False when the last label is not on the list (the default "*" rule applied). */
  knownSuffix: boolean;
  subdomain: string | null;
};

export type RegistrableCheck = { ok: true; name: RegistrableName } | { ok: false; reason: string };

export function registrableNameOf(input: string): RegistrableCheck {
  const checked = checkDomainName(input);
  if (!checked.ok) return { ok: false, reason: checked.reason };
  const p = parse(checked.name, { allowPrivateDomains: true, extractHostname: false });
  if (p.isIp) return { ok: false, reason: "An IP address is not a domain name." };
  if (!p.domain || !p.publicSuffix) {
    return {
      ok: false,
      reason: `${checked.name} is a public suffix (or has no registrable part), not a registrable domain.`,
    };
  }
  return {
    ok: true,
    name: {
      hostname: checked.name,
      registrableDomain: p.domain,
      publicSuffix: p.publicSuffix,
      privateSuffix: p.isPrivate === true,
      knownSuffix: p.isIcann === true || p.isPrivate === true,
      subdomain: p.subdomain || null,
    },
  };
}

/** The lowest registrable domain below any private suffix: where RDAP registration data lives. */
export function icannRegistrableDomain(hostname: string): string | null {
  return parse(hostname, { allowPrivateDomains: false, extractHostname: false }).domain ?? null;
}

export const PSL_SOURCE = {
  name: "Public Suffix List (via tldts)",
  license: "MPL-2.0",
  url: "https://publicsuffix.org/list/",
};
