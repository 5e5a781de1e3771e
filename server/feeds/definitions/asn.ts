// IP to ASN and organisation, from the @ip-location-db/asn package: RouteViews announcements merged with the five
// RIRs' delegation files and DB-IP's IP to ASN Lite organisation names (all CC BY 4.0).
import { feedSourceUrl, packageFile } from "../config";
import { ipv6ToBigInt } from "../ip-range-set";
import type { FeedDefinition } from "../types";

/** Non-overlapping ranges sorted by start: the row holding an address is found by binary search. */
export interface AsnTable<N extends number | bigint> {
  starts: N[] | Uint32Array;
  ends: N[] | Uint32Array;
  asns: Uint32Array;
  orgIds: Uint32Array;
  orgs: string[];
}

const LICENSE = "CC-BY-4.0";
const ATTRIBUTION =
  "IP to ASN data by RouteViews (routeviews.org), the NRO (nro.net) and DB-IP (IP Geolocation by DB-IP, https://db-ip.com), compiled by ip-location-db (github.com/sapics/ip-location-db); CC BY 4.0";
const CDN = "https://cdn.jsdelivr.net/npm/@ip-location-db/asn";

function unquote(field: string): string {
  return field.startsWith('"') && field.endsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
}

function parseRows<N extends number | bigint>(
  raw: Buffer,
  toNumber: (s: string) => N | null,
): AsnTable<N> & { count: number } {
  const lines = raw.toString("utf8").split("\n");
  const starts: N[] = [];
  const ends: N[] = [];
  const asns: number[] = [];
  const orgIds: number[] = [];
  const orgs: string[] = [];
  const orgIndex = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const c1 = line.indexOf(",");
    const c2 = line.indexOf(",", c1 + 1);
    const c3 = line.indexOf(",", c2 + 1);
    const start = c1 > 0 ? toNumber(line.slice(0, c1)) : null;
    const end = c2 > c1 ? toNumber(line.slice(c1 + 1, c2)) : null;
    const asn = c3 > c2 ? Number(line.slice(c2 + 1, c3)) : NaN;
    if (start === null || end === null || end < start || !Number.isInteger(asn) || asn < 0 || asn > 4294967295) {
      throw new Error(`malformed ASN row ${i + 1}: ${JSON.stringify(line.slice(0, 80))}`);
    }
    const last = starts.length - 1;
    if (last >= 0 && start <= starts[last]!) throw new Error(`ASN rows out of order at row ${i + 1}`);
    // The upstream has the odd overlapping row (a wide delegation and a route inside it): the later, narrower
    // row wins, so the table stays disjoint for binary search.
    if (last >= 0 && start <= ends[last]!)
      ends[last] = (typeof start === "bigint" ? start - 1n : (start as number) - 1) as N;
    const org = unquote(line.slice(c3 + 1));
    let id = orgIndex.get(org);
    if (id === undefined) {
      id = orgs.push(org) - 1;
      orgIndex.set(org, id);
    }
    starts.push(start);
    ends.push(end);
    asns.push(asn);
    orgIds.push(id);
  }
  if (starts.length === 0) throw new Error("empty ASN table");
  return { starts, ends, asns: Uint32Array.from(asns), orgIds: Uint32Array.from(orgIds), orgs, count: starts.length };
}

const v4 = (s: string): number | null => (/^\d{1,10}$/.test(s) && Number(s) <= 4294967295 ? Number(s) : null);

export const asnIpv4Feed: FeedDefinition<AsnTable<number>> = {
  name: "asn-ipv4",
  description: "IPv4 ranges to origin ASN and organisation",
  license: LICENSE,
  attribution: ATTRIBUTION,
  snapshotPath: packageFile("@ip-location-db", "asn", "asn-ipv4-num.csv"),
  sourceUrl: () => feedSourceUrl("asn-ipv4", `${CDN}/asn-ipv4-num.csv`),
  parse(raw) {
    const t = parseRows(raw, v4);
    return {
      data: { ...t, starts: Uint32Array.from(t.starts as number[]), ends: Uint32Array.from(t.ends as number[]) },
      count: t.count,
    };
  },
};

export const asnIpv6Feed: FeedDefinition<AsnTable<bigint>> = {
  name: "asn-ipv6",
  description: "IPv6 ranges to origin ASN and organisation",
  license: LICENSE,
  attribution: ATTRIBUTION,
  snapshotPath: packageFile("@ip-location-db", "asn", "asn-ipv6.csv"),
  sourceUrl: () => feedSourceUrl("asn-ipv6", `${CDN}/asn-ipv6.csv`),
  parse(raw) {
    const t = parseRows(raw, ipv6ToBigInt);
    return { data: t, count: t.count };
  },
};
