// GET /domain/{domain}: everything known about a domain, gathered in parallel. Each part that cannot be had is
// null with a reason; the answer always stands on the offline parts (suffix, lists), so it is never a 503.
import { checkTarget } from "../blocklists/check";
import { domainZones } from "../blocklists/config";
import { parseTarget } from "../blocklists/targets";
import { getEmailSecurityOrThrow } from "../email/security/posture";
import { disposableMatch, emailFeedSources, isFreeProviderDomain } from "../email/feed-lists";
import { certainlyExists, unreliableResolverReason } from "../email/well-known";
import { AppError } from "../errors";
import { getDnsTimeoutMs, isAnswered, queryDns, type DnsQueryResult } from "../providers/dns";
import { getDomainRdap } from "../providers/rdap/domain";
import { domainPartTimeoutMs, withDeadline } from "./config";
import { icannRegistrableDomain, PSL_SOURCE, registrableNameOf } from "./registrable";
import { scoreDomain } from "./risk";
import type { DomainIntel, DomainSource } from "./schemas";

const TYPES = ["A", "AAAA", "MX", "NS", "TXT"] as const;

function summarizeDns(
  results: DnsQueryResult[],
  domain: string,
): {
  dns: DomainIntel["dns"];
  reason: string | null;
  exists: boolean | null;
} {
  const [a, aaaa, mx, ns, txt] = results as [
    DnsQueryResult,
    DnsQueryResult,
    DnsQueryResult,
    DnsQueryResult,
    DnsQueryResult,
  ];
  const status = Object.fromEntries(results.map((r) => [r.type, r.status]));
  if (results.every((r) => !isAnswered(r))) {
    return { dns: null, reason: `No resolver answered (${a.status}).`, exists: null };
  }
  const of = (r: DnsQueryResult, type: string) => r.records.filter((x) => x.type === type);
  const exists = results.some((r) => isAnswered(r) && r.status !== "NXDOMAIN")
    ? true
    : results.every((r) => r.status === "NXDOMAIN")
      ? false
      : null;
  // NXDOMAIN for google.com says the resolver is broken, not that the domain is gone (server/email/well-known.ts).
  if (exists === false && certainlyExists(domain))
    return { dns: null, reason: unreliableResolverReason(domain), exists: null };
  return {
    exists,
    reason: results.some((r) => !isAnswered(r)) ? "Some record types could not be resolved; see status." : null,
    dns: {
      a: of(a, "A").map((x) => x.value),
      aaaa: of(aaaa, "AAAA").map((x) => x.value),
      mx: of(mx, "MX").map((x) => {
        const d = x.data as { preference: number; exchange: string } | null;
        return { preference: d?.preference ?? 0, exchange: (d?.exchange ?? x.value).replace(/\.$/, "") };
      }),
      ns: of(ns, "NS").map((x) => x.value.replace(/\.$/, "")),
      txt: of(txt, "TXT").map((x) => (x.data && "strings" in x.data ? x.data.strings.join("") : x.value)),
      status,
    },
  };
}

export async function getDomainIntelOrThrow(domainInput: string): Promise<DomainIntel> {
  const reg = registrableNameOf(domainInput);
  if (!reg.ok) throw new AppError("INVALID_REQUEST", reg.reason);
  const n = reg.name;
  const checkedAt = new Date().toISOString();
  const rdapDomain = icannRegistrableDomain(n.hostname) ?? n.registrableDomain;
  const target = parseTarget(n.hostname);

  const ms = domainPartTimeoutMs();
  let blocklistFailure = "The blocklist check could not run.";
  const [rdap, dnsResults, email, blocklist] = await Promise.all([
    withDeadline(getDomainRdap(rdapDomain), ms, "RDAP").catch((err: unknown) => ({
      status: "unavailable" as const,
      reason: (err as Error).message,
    })),
    Promise.all(TYPES.map((t) => queryDns(n.hostname, t, { timeoutMs: Math.min(getDnsTimeoutMs(), ms) }))),
    withDeadline(getEmailSecurityOrThrow({ domain: n.hostname }), ms, "The email authentication check").catch(
      (err: unknown) => err as Error,
    ),
    "error" in target
      ? Promise.resolve(null)
      : withDeadline(checkTarget(target), ms, "The blocklist check").catch((err: unknown) => {
          blocklistFailure = (err as Error).message;
          return null;
        }),
  ]);

  const dns = summarizeDns(dnsResults, n.hostname);
  const registration: DomainIntel["registration"] =
    rdap.status === "ok"
      ? {
          registrar: rdap.data.registrar?.name ?? null,
          createdAt: rdap.data.registeredAt,
          updatedAt: rdap.data.lastChangedAt,
          expiresAt: rdap.data.expiresAt,
          ageDays: rdap.data.ageDays,
          status: rdap.data.status,
          nameservers: rdap.data.nameservers,
        }
      : null;
  const emailAuthentication: DomainIntel["emailAuthentication"] =
    email instanceof Error
      ? null
      : {
          overall: email.overall.status,
          reason: email.overall.reason,
          spf: email.spf.status,
          dmarc: email.dmarc.status,
          dmarcPolicy: (email.dmarc as { policy?: string | null }).policy ?? null,
          dkim: email.dkim.status,
        };
  const blocklists: DomainIntel["blocklists"] = blocklist
    ? {
        status: blocklist.status,
        listedOn: blocklist.listedOn,
        checked: blocklist.lists.length,
        unavailable: blocklist.lists.filter((l) => l.status === "unavailable" || l.status === "refused").length,
      }
    : null;
  const disposable = disposableMatch(n.hostname) !== null;
  const freeEmailProvider = isFreeProviderDomain(n.hostname);
  const evidence = {
    exists: dns.exists,
    registration,
    dns: dns.dns,
    emailAuthentication,
    disposable,
    freeEmailProvider,
    blocklists,
    knownSuffix: n.knownSuffix,
  };

  const sources: DomainSource[] = [
    {
      name: PSL_SOURCE.name,
      url: PSL_SOURCE.url,
      fetchedAt: null,
      status: "ok",
      reason: `bundled with tldts; ${PSL_SOURCE.license}`,
    },
    rdap.status === "ok"
      ? {
          name: `rdap ${rdap.data.source.registry}`,
          url: rdap.data.source.url,
          fetchedAt: rdap.data.source.fetchedAt,
          status: "ok",
          reason: null,
        }
      : { name: "rdap", url: null, fetchedAt: null, status: "unavailable", reason: rdap.reason },
    {
      name: "dns",
      url: null,
      fetchedAt: checkedAt,
      status: dns.dns ? "ok" : "unavailable",
      reason: `resolvers ${dnsResults[0]!.servers.join(", ")}`,
    },
    {
      name: "email-security",
      url: null,
      fetchedAt: email instanceof Error ? null : email.checkedAt,
      status: email instanceof Error ? "unavailable" : "ok",
      reason: email instanceof Error ? email.message : null,
    },
    ...emailFeedSources()
      .filter((f) => f.name !== "role-accounts")
      .map((f): DomainSource => ({
        name: f.name,
        url: null,
        fetchedAt: f.fetchedAt,
        status: "ok",
        reason: `${f.count} domains; ${f.license}`,
      })),
    {
      name: "dns-blocklists",
      url: null,
      fetchedAt: blocklist ? checkedAt : null,
      status: blocklist ? "ok" : "unavailable",
      reason: blocklist ? `zones ${domainZones().join(", ")}` : blocklistFailure,
    },
  ];

  return {
    domain: n.hostname,
    registrableDomain: n.registrableDomain,
    publicSuffix: n.publicSuffix,
    privateSuffix: n.privateSuffix,
    knownSuffix: n.knownSuffix,
    subdomain: n.subdomain,
    exists: dns.exists,
    registration,
    registrationReason: rdap.status === "ok" ? null : rdap.reason,
    dns: dns.dns,
    dnsReason: dns.reason,
    emailAuthentication,
    emailAuthenticationReason: email instanceof Error ? email.message : null,
    disposable,
    freeEmailProvider,
    blocklists,
    blocklistsReason: blocklists ? null : "error" in target ? target.error : blocklistFailure,
    risk: scoreDomain(evidence),
    checkedAt,
    sources,
  };
}
