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

// Rows parsed between two looks at the clock when parsing without blocking (parseAsync).
const SLICE_ROWS = 5000;
// Longest a slice may hold the event loop before the parse yields (start-up probes answer in between).
const SLICE_MS = 20;

function parseRows<N extends number | bigint>(raw: Buffer, toNumber: (s: string) => N | null) {
  const steps = parseRowSteps(raw, toNumber);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

async function parseRowsAsync<N extends number | bigint>(raw: Buffer, toNumber: (s: string) => N | null) {
  const steps = parseRowSteps(raw, toNumber);
  let sliceStarted = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - sliceStarted >= SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStarted = performance.now();
    }
  }
}

/** The parse, as steps: it yields every SLICE_ROWS rows so that parseRowsAsync can give the event loop a turn. */
function* parseRowSteps<N extends number | bigint>(
  raw: Buffer,
  toNumber: (s: string) => N | null,
): Generator<void, AsnTable<N> & { count: number }> {
  // Decoded a megabyte at a time, at line ends, and read line by line: decoding or splitting the whole 20 MB file
  // at once held the event loop longest.
  let text = "";
  let decodedTo = 0;
  yield;
  const starts: N[] = [];
  const ends: N[] = [];
  const asns: number[] = [];
  const orgIds: number[] = [];
  const orgs: string[] = [];
  const orgIndex = new Map<string, number>();
  for (let i = 0, at = 0; at < text.length || decodedTo < raw.length; i++) {
    if (i % SLICE_ROWS === 0) yield;
    if (at >= text.length) {
      let end = raw.indexOf(10, Math.min(raw.length, decodedTo + 1_000_000));
      end = end < 0 ? raw.length : end + 1;
      text = raw.toString("utf8", decodedTo, end);
      decodedTo = end;
      at = 0;
    }
    let nl = text.indexOf("\n", at);
    if (nl < 0) nl = text.length;
    const line = text.slice(at, nl).trim();
    at = nl + 1;
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

function v4Table(t: AsnTable<number> & { count: number }) {
  return {
    data: { ...t, starts: Uint32Array.from(t.starts as number[]), ends: Uint32Array.from(t.ends as number[]) },
    count: t.count,
  };
}

export const asnIpv4Feed: FeedDefinition<AsnTable<number>> = {
  name: "asn-ipv4",
  description: "IPv4 ranges to origin ASN and organisation",
  license: LICENSE,
  attribution: ATTRIBUTION,
  snapshotPath: packageFile("@ip-location-db", "asn", "asn-ipv4-num.csv"),
  sourceUrl: () => feedSourceUrl("asn-ipv4", `${CDN}/asn-ipv4-num.csv`),
  parse(raw) {
    return v4Table(parseRows(raw, v4));
  },
  async parseAsync(raw) {
    return v4Table(await parseRowsAsync(raw, v4));
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
  async parseAsync(raw) {
    const t = await parseRowsAsync(raw, ipv6ToBigInt);
    return { data: t, count: t.count };
  },
};
