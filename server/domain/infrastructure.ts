// /domain/{domain}/infrastructure (spec behaviour 2): the hostname's current A, AAAA and CNAME records, each address
// with its network registration (shipped ASN tables) and location (shipped geolocation), and CDN or reverse-proxy
// edges named as such. 503 when DNS or the network data cannot answer.
import { lookupAsnForIp, type AsnMatch } from "../asn/lookup";
import { checkDomainName } from "../dns/names";
import { AppError } from "../errors";
import { lookupGeo } from "../geo/lookup";
import { classifyIp, parseIpStrict } from "../net/ip";
import { isAnswered, queryDns, type DnsQueryResult, type DnsRecord } from "../providers/dns";
import { identifyEdge } from "./cdn";
import type { DomainSource, InfraAddress, InfrastructureResponse } from "./schemas";

const EDGE_NOTE =
  "CDN and reverse-proxy addresses identify the edge network that answers for the hostname, not the origin server behind it.";

function cnameChain(name: string, results: DnsQueryResult[]): { name: string; target: string; ttl: number }[] {
  const links = new Map<string, DnsRecord>();
  for (const r of results)
    for (const rec of r.records) if (rec.type === "CNAME") links.set(rec.name.toLowerCase().replace(/\.$/, ""), rec);
  const chain = [];
  let cur = name;
  for (let i = 0; i < 16; i++) {
    const rec = links.get(cur);
    if (!rec) break;
    const target = rec.value.toLowerCase().replace(/\.$/, "");
    chain.push({ name: cur, target, ttl: rec.ttl });
    cur = target;
  }
  return chain;
}

function networkOf(address: string): { match: AsnMatch | null; reason: string | null } {
  if (classifyIp(address).scope !== "public" && classifyIp(address).scope !== "ipv4_mapped") {
    return {
      match: null,
      reason: `${classifyIp(address).reason ?? "Not a public address"}: not announced on the internet.`,
    };
  }
  let match: AsnMatch | null;
  try {
    match = lookupAsnForIp(address);
  } catch (err) {
    throw new AppError("UPSTREAM_UNAVAILABLE", `IP network data is unavailable: ${(err as Error).message}`);
  }
  return {
    match,
    reason: match ? null : "No announced route or registry delegation holds this address in the shipped ASN data.",
  };
}

let geoDate: string | null = null;

function locationOf(address: string): InfraAddress["location"] {
  try {
    const g = lookupGeo(address);
    geoDate = g.source.databaseDate;
    return {
      countryCode: g.country?.code ?? null,
      country: g.country?.name ?? null,
      region: g.region,
      city: g.city,
      latitude: g.latitude,
      longitude: g.longitude,
      reason: g.reason,
    };
  } catch (err) {
    return {
      countryCode: null,
      country: null,
      region: null,
      city: null,
      latitude: null,
      longitude: null,
      reason: `Geolocation data is unavailable: ${(err as Error).message}`,
    };
  }
}

export async function getInfrastructureOrThrow(domainInput: string): Promise<InfrastructureResponse> {
  const checked = checkDomainName(domainInput);
  if (!checked.ok) throw new AppError("INVALID_REQUEST", checked.reason);
  const name = checked.name;
  const [a, aaaa, cname] = await Promise.all([queryDns(name, "A"), queryDns(name, "AAAA"), queryDns(name, "CNAME")]);
  const failed = [a, aaaa].filter((r) => !isAnswered(r));
  const hasAddresses = [...a.records, ...aaaa.records].some((r) => r.type === "A" || r.type === "AAAA");
  if (failed.length > 0 && !hasAddresses) {
    throw new AppError(
      "UPSTREAM_UNAVAILABLE",
      `DNS resolution of ${name} failed (${failed.map((r) => `${r.type} ${r.status}`).join(", ")}).`,
    );
  }
  const dnsGap = failed.length
    ? `${failed.map((r) => `${r.type} ${r.status}`).join(", ")}: those records may be missing`
    : null;
  if (a.status === "NXDOMAIN" && aaaa.status === "NXDOMAIN")
    throw new AppError("DOMAIN_NOT_FOUND", `${name} does not exist (NXDOMAIN).`);

  const chain = cnameChain(name, [cname, a, aaaa]);
  const targets = chain.map((c) => c.target);
  const seen = new Set<string>();
  const addresses: InfraAddress[] = [];
  let network: AsnMatch["source"] | null = null;
  for (const rec of [...a.records, ...aaaa.records]) {
    if (rec.type !== "A" && rec.type !== "AAAA") continue;
    const ip = parseIpStrict(rec.value);
    if (!ip || seen.has(ip.address)) continue;
    seen.add(ip.address);
    const net = networkOf(ip.address);
    network ??= net.match?.source ?? null;
    addresses.push({
      address: ip.address,
      version: ip.version,
      recordType: rec.type,
      ttl: rec.ttl,
      scope: classifyIp(ip.address).scope,
      network: {
        asn: net.match?.asn ?? null,
        organization: net.match?.organization ?? null,
        range: net.match?.range ?? null,
        reason: net.reason,
      },
      location: locationOf(ip.address),
      edge: identifyEdge(ip.address, net.match?.asn ?? null, targets),
    });
  }
  const edges = addresses.filter((x) => x.edge);
  const checkedAt = new Date().toISOString();
  const sources: DomainSource[] = [
    {
      name: "dns",
      url: null,
      fetchedAt: checkedAt,
      status: dnsGap ? "unavailable" : "ok",
      reason: `resolvers ${a.servers.join(", ")}; answered by ${a.server ?? aaaa.server ?? "none"}${dnsGap ? `; ${dnsGap}` : ""}`,
    },
    network
      ? {
          name: network.name,
          url: null,
          fetchedAt: network.fetchedAt,
          status: "ok",
          reason: `${network.license}${network.attribution ? `; ${network.attribution}` : ""}`,
        }
      : {
          name: "asn",
          url: null,
          fetchedAt: null,
          status: addresses.length ? "ok" : "not_applicable",
          reason: addresses.length ? "no public address matched the ASN tables" : "no addresses",
        },
    {
      name: "geolocation",
      url: null,
      fetchedAt: geoDate,
      status: addresses.length ? "ok" : "not_applicable",
      reason: "DB-IP IP to City Lite (CC BY 4.0): IP Geolocation by DB-IP",
    },
  ];
  return {
    domain: name,
    cname: chain,
    addresses,
    behindEdge: addresses.length > 0 && edges.length === addresses.length,
    note: edges.length ? EDGE_NOTE : addresses.length ? null : `${name} has no A or AAAA records.`,
    checkedAt,
    sources,
  };
}
