// The IP reputation object behind GET /ip/{ip} and /ip/{ip}/reputation (and each address of a CIDR check):
// classification, origin AS, network type, anonymiser flags kept apart, list memberships, and a scored verdict.
// Everything comes from shipped or refreshed feeds in memory: no upstream call, so no 503.
import { AppError } from "../errors";
import { lookupAsnForIp } from "../asn/lookup";
import { asnIpv4Feed, asnIpv6Feed } from "../feeds/definitions/asn";
import { getFeed } from "../feeds/loader";
import type { FeedSourceRef } from "../feeds/source";
import { classifyIp, parseIpStrict } from "../net/ip";
import { checkLists, type ListMembership } from "./feed-lists";
import { classifyNetwork, type NetworkInfo } from "./network";
import { loadPrivacyIndex, NO_PROXY_DATA, type Privacy } from "./privacy";
import { scoreIp, type RiskScore } from "./score";

export interface Flag {
  value: boolean | null;
  reason: string | null;
}

export interface IpReputation {
  ip: string;
  version: 4 | 6;
  classification: { scope: string; range: string | null; reason: string | null; bogon: boolean };
  asn: { number: number; organization: string | null; route: { start: string; end: string } } | null;
  asnReason: string | null;
  network: NetworkInfo;
  privacy: Privacy;
  anonymizers: { torExit: Flag; vpn: Flag; proxy: Flag; hosting: Flag };
  lists: ListMembership[];
  risk: RiskScore;
  sources: FeedSourceRef[];
  checkedAt: string;
}

let privacyLoaded: Promise<unknown> | null = null;

export async function getIpReputation(ip: string): Promise<IpReputation> {
  const parsed = parseIpStrict(ip);
  if (!parsed) throw new AppError("INVALID_REQUEST", `"${ip}" is not a valid IPv4 or IPv6 address.`);
  const address = parsed.address;
  const c = classifyIp(address);
  const isPublic = c.scope === "public";

  // Evidence lists: a refreshed database copy first, on the first call of the process only.
  privacyLoaded ??= loadPrivacyIndex().catch((err) => {
    privacyLoaded = null;
    throw err;
  });
  await privacyLoaded;
  // Loads the table (database copy first) on the first call of the process; later calls answer from memory.
  await (parsed.version === 4 ? getFeed(asnIpv4Feed) : getFeed(asnIpv6Feed));
  const match = isPublic ? lookupAsnForIp(address) : null;
  const sources: FeedSourceRef[] = [];
  if (match) sources.push(match.source);

  const net = await classifyNetwork(address, match ? { asn: match.asn, organization: match.organization } : null);
  const { lists, sources: listSources } = await checkLists(address, match?.asn ?? null);
  sources.push(...net.sources, ...listSources);

  const tor = lists.find((l) => l.list === "tor-exits")!;
  const p = net.privacy;
  const vpn = p.classes.vpn;
  return {
    ip: address,
    version: parsed.version,
    classification: { scope: c.scope, range: c.range, reason: c.reason, bogon: !isPublic },
    asn: match ? { number: match.asn, organization: match.organization, route: match.range } : null,
    asnReason: match
      ? null
      : isPublic
        ? "No origin AS for this address in the shipped routing data"
        : "Not a public address: no AS originates it",
    network: net.info,
    privacy: p,
    anonymizers: {
      torExit: { value: tor.listed, reason: tor.reason },
      vpn: {
        value: p.vpn,
        reason: vpn.detail,
      },
      proxy: { value: null, reason: NO_PROXY_DATA },
      // A CDN edge counts as a datacenter here, as it always has; `privacy` tells the two apart.
      hosting: { value: p.hosting || p.cdn, reason: p.hosting || p.cdn ? net.info.basis.join("; ") : null },
    },
    lists,
    risk: scoreIp({ classification: c, asn: match?.asn ?? null, network: net.info, privacy: p, lists }),
    sources,
    checkedAt: new Date().toISOString(),
  };
}

/** Loads the IP feeds (ASN tables, lists, ranges) so the first request does not pay for parsing them. */
export async function warmIpFeeds(): Promise<void> {
  await loadPrivacyIndex();
  await getIpReputation("192.0.2.1");
  await Promise.all([getIpReputation("1.1.1.1"), getIpReputation("2606:4700::1111")]);
}
