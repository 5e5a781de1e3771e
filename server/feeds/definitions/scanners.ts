// Internet-wide scanners (Censys, Shodan, Shadowserver, Stretchoid, Rapid7, Onyphe, ...) from the MISP warninglists
// (CC0): traffic from these addresses is automated research or reconnaissance, never a customer. One feed holds all
// the lists, each naming its organisation. The shipped snapshot (2026-08-20) is the lists joined in one document
// `{ lists: [{ name, description, version, list }] }`; a refresh reads each list's own `list.json` from the MISP
// repository (or SERVICE_FEED_SCANNERS_MISP_URL: one document of either shape, or several space-separated).
import { feedSourceUrl, shippedFeedFile } from "../config";
import { parseCidr } from "../ip-range-set";
import type { FeedDefinition } from "../types";
import { SOURCE_SEPARATOR, type RangeEntry } from "./ranges";

export interface ScannerList {
  /** The MISP list's name, e.g. "censys-scanning". */
  name: string;
  /** The organisation behind the scanner, e.g. "Censys". */
  organisation: string;
  version: string | null;
  entries: RangeEntry[];
}

export interface ScannerLists {
  lists: ScannerList[];
}

// The MISP lists as they were shipped (2026-08-20); a refresh reads the same lists from the repository.
const MISP_LISTS = [
  "alphastrike-research-nt-scanning",
  "alphastrike-scanning",
  "bufferover-nt-scanning",
  "censys-scanning",
  "circl-security-scanning",
  "circl-ssh-scanning",
  "coalition-signals-intelligence-nt-scanning",
  "cybergreen-nt-scanning",
  "cyberresilience-nt-scanning",
  "cypex-nt-scanning",
  "f6-nt-scanning",
  "internet-census-nt-scanning",
  "internetcleanup-scanner",
  "intrinsec-nt-scanning",
  "ipinfo-nt-scanning",
  "ipip-nt-scanning",
  "modat-nt-scanning",
  "modat-scanner",
  "netsecscan-nt-scanning",
  "netsecscan-scanning",
  "onyphe-nt-scanning",
  "onyphe-scanner",
  "probethenet-nt-scanning",
  "rapid7-nt-scanning",
  "research-scanner-nt-scanning",
  "shadowforce-nt-scanning",
  "shadowforce-scanning",
  "shadowserver-nt-scanning",
  "shodan-nt-scanning",
  "shodan-scanning",
  "skipa-nt-scanning",
  "stretchoid-nt-scanning",
];
const MISP = "https://raw.githubusercontent.com/MISP/misp-warninglists/main/lists";

// The organisation's own spelling where the list's name does not give it.
const ORGANISATIONS: Record<string, string> = {
  alphastrike: "Alpha Strike Labs",
  "alphastrike-research": "Alpha Strike Labs",
  bufferover: "BufferOver",
  circl: "CIRCL",
  "circl-security": "CIRCL",
  "circl-ssh": "CIRCL",
  "coalition-signals-intelligence": "Coalition",
  cybergreen: "CyberGreen",
  cyberresilience: "Cyber Resilience",
  "internet-census": "Internet Census Group",
  internetcleanup: "Internet Cleanup Foundation",
  ipinfo: "IPinfo",
  ipip: "IPIP.NET",
  netsecscan: "NetSecScan",
  probethenet: "ProbeTheNet",
  "research-scanner": "an unnamed research scanner",
  shadowforce: "ShadowForce",
};

/** "censys-scanning" -> "Censys"; "internet-census-nt-scanning" -> "Internet Census Group". */
export function scannerOrganisation(listName: string): string {
  const stem = listName.replace(/(-nt)?-(scanning|scanner)$/, "");
  return (
    ORGANISATIONS[stem] ??
    stem
      .split("-")
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(" ")
  );
}

function readList(doc: Record<string, unknown>, feed: string): ScannerList {
  const name = typeof doc.name === "string" ? doc.name : null;
  if (!name || !Array.isArray(doc.list)) throw new Error(`${feed}: a list without a name or entries`);
  const entries: RangeEntry[] = [];
  for (const item of doc.list) {
    const cidr = String(item).trim();
    const range = parseCidr(cidr);
    if (!range) throw new Error(`${feed}: not a CIDR in ${name}: ${JSON.stringify(cidr.slice(0, 60))}`);
    entries.push({ cidr, range, region: null, service: null });
  }
  return {
    name,
    organisation: scannerOrganisation(name),
    version: doc.version === undefined || doc.version === null ? null : String(doc.version),
    entries,
  };
}

export function parseScannerLists(raw: Buffer, feed = "scanners-misp"): { data: ScannerLists; count: number } {
  const lists: ScannerList[] = [];
  for (const part of raw.toString("utf8").split(SOURCE_SEPARATOR)) {
    if (!part.trim()) continue;
    let json: unknown;
    try {
      json = JSON.parse(part);
    } catch {
      throw new Error(`${feed}: not JSON`);
    }
    const doc = json as { lists?: unknown };
    if (Array.isArray(doc.lists)) for (const l of doc.lists as Record<string, unknown>[]) lists.push(readList(l, feed));
    else if (json && typeof json === "object") lists.push(readList(json as Record<string, unknown>, feed));
    else throw new Error(`${feed}: neither a MISP warninglist nor a document of them`);
  }
  return { data: { lists }, count: lists.reduce((n, l) => n + l.entries.length, 0) };
}

export const scannersFeed: FeedDefinition<ScannerLists> = {
  name: "scanners-misp",
  description: "Internet-wide scanners by organisation (MISP warninglists: Censys, Shodan, Shadowserver, ...)",
  license: "CC0 1.0 (MISP warninglists)",
  attribution: "MISP project, misp-warninglists",
  snapshotPath: shippedFeedFile("scanners-misp.json"),
  sourceUrl: () => feedSourceUrl("scanners-misp", MISP_LISTS.map((n) => `${MISP}/${n}/list.json`).join(" ")),
  parse: (raw) => parseScannerLists(raw),
};
