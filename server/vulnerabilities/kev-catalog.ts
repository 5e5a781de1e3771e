// The known-exploited catalog as the API answers it: exact CVE matches and a filtered, paged search. Data comes
// from the feed loader (memory after the first use; a refreshed copy replaces the shipped one).
import { getFeedSync } from "../feeds/loader";
import { kevFeed } from "./kev-feed";
import type { KevCatalog, KevEntry } from "./kev-parse";

export type { KevEntry } from "./kev-parse";

export type KevCatalogInfo = {
  version: string | null;
  releasedAt: string | null;
  count: number;
  /** True when the data in use is a labelled subset of the catalog; `note` says which part. */
  partial: boolean;
  note: string | null;
  origin: "shipped" | "refreshed";
  fetchedAt: string;
  sourceUrl: string | null;
};

function state() {
  return getFeedSync<KevCatalog>(kevFeed);
}

export function kevCatalogInfo(): KevCatalogInfo {
  const s = state();
  return {
    version: s.data.catalogVersion ?? s.version,
    releasedAt: s.data.dateReleased,
    count: s.data.entries.length,
    partial: s.data.partial,
    note: s.data.note,
    origin: s.origin,
    fetchedAt: s.fetchedAt.toISOString(),
    sourceUrl: s.sourceUrl,
  };
}

export function findKevEntry(cveId: string): KevEntry | null {
  return state().data.byCve.get(cveId.toUpperCase()) ?? null;
}

export type KevSearchInput = {
  query?: string;
  vendor?: string;
  product?: string;
  cve?: string;
  /** A CWE identifier (CWE-79): only entries that list it. */
  cwe?: string;
  /** true: only entries with known ransomware campaign use; false: only the others. */
  ransomware?: boolean;
  /** Inclusive YYYY-MM-DD bounds on dateAdded. */
  addedSince?: string;
  addedUntil?: string;
  limit: number;
  offset: number;
};

export type KevSearchResult = {
  catalog: KevCatalogInfo;
  total: number;
  limit: number;
  offset: number;
  vulnerabilities: KevEntry[];
  checkedAt: string;
};

type Indexed = { entry: KevEntry; text: string; vendor: string; product: string };

// Built once per catalog object: a refresh installs a new catalog and so a new index.
const indexes = new WeakMap<KevCatalog, Indexed[]>();

function index(catalog: KevCatalog): Indexed[] {
  const hit = indexes.get(catalog);
  if (hit) return hit;
  const built = catalog.entries.map((e) => ({
    entry: e,
    text: [e.cveId, e.vendorProject, e.product, e.vulnerabilityName, e.shortDescription, e.notes, ...e.cwes]
      .join("\n")
      .toLowerCase(),
    vendor: e.vendorProject.toLowerCase(),
    product: e.product.toLowerCase(),
  }));
  indexes.set(catalog, built);
  return built;
}

/**
 * Filters combine with AND; text filters are case-insensitive substrings, every word of `query` must occur. The
 * catalog is held newest first (dateAdded descending, then CVE id), so every page lists the newest additions first.
 */
export function searchKev(input: KevSearchInput): KevSearchResult {
  const s = state();
  const rows = index(s.data);
  const words = (input.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const vendor = input.vendor?.trim().toLowerCase();
  const product = input.product?.trim().toLowerCase();
  const cve = input.cve?.trim().toUpperCase();
  const cwe = input.cwe?.trim().toUpperCase();
  const matches = rows.filter((r) => {
    const e = r.entry;
    if (cve && e.cveId !== cve) return false;
    if (cwe && !e.cwes.some((c) => c.toUpperCase() === cwe)) return false;
    if (vendor && !r.vendor.includes(vendor)) return false;
    if (product && !r.product.includes(product)) return false;
    if (input.ransomware !== undefined && (e.knownRansomwareCampaignUse.toLowerCase() === "known") !== input.ransomware)
      return false;
    if (input.addedSince && e.dateAdded < input.addedSince) return false;
    if (input.addedUntil && e.dateAdded > input.addedUntil) return false;
    return words.every((w) => r.text.includes(w));
  });
  return {
    catalog: kevCatalogInfo(),
    total: matches.length,
    limit: input.limit,
    offset: input.offset,
    vulnerabilities: matches.slice(input.offset, input.offset + input.limit).map((r) => r.entry),
    checkedAt: new Date().toISOString(),
  };
}
