// Which upstream sources a report used, where, whether each answered, and when (fetchedAt of a cached answer is
// the time of the original upstream call).
import type { Fetched } from "../providers/packages/http";
import { npmBulkAdvisoryUrl } from "../providers/packages/npm-registry";
import { osvQueryBatchUrl } from "../providers/packages/osv";
import { kevCatalogInfo } from "./kev-catalog";
import type { Ecosystem } from "./versions";

export type SourceStatus = {
  source: "registry" | "osv" | "downloads" | "npmAdvisories" | "kev";
  url: string | null;
  status: "ok" | "not_found" | "unavailable" | "not_applicable";
  fetchedAt: string | null;
  cached: boolean;
  reason: string | null;
};

function status(
  source: SourceStatus["source"],
  r: Fetched<unknown> | null,
  fallbackUrl: string | null,
  na: string,
): SourceStatus {
  if (!r) return { source, url: fallbackUrl, status: "not_applicable", fetchedAt: null, cached: false, reason: na };
  if (r.kind === "ok")
    return { source, url: r.url, status: "ok", fetchedAt: r.fetchedAt, cached: r.cached, reason: null };
  if (r.kind === "not_found")
    return {
      source,
      url: r.url,
      status: "not_found",
      fetchedAt: null,
      cached: false,
      reason: "no record for this package",
    };
  return { source, url: r.url || fallbackUrl, status: "unavailable", fetchedAt: null, cached: false, reason: r.reason };
}

export function buildSources(
  eco: Ecosystem,
  r: {
    registry: Fetched<unknown>;
    osv: Fetched<unknown>;
    downloads: Fetched<unknown> | null;
    npmAdvisories: Fetched<unknown> | null;
  },
) {
  const kev = kevCatalogInfo();
  const notNpm = "only npm packages have this source";
  const sourceStatus: SourceStatus[] = [
    status("registry", r.registry, null, ""),
    status("osv", r.osv, osvQueryBatchUrl(), ""),
    status("downloads", r.downloads, null, eco === "npm" ? "not requested" : notNpm),
    status(
      "npmAdvisories",
      r.npmAdvisories,
      eco === "npm" ? npmBulkAdvisoryUrl() : null,
      eco === "npm" ? "registry lookup failed first" : notNpm,
    ),
    {
      source: "kev",
      url: kev.sourceUrl,
      status: "ok",
      fetchedAt: kev.fetchedAt,
      cached: true,
      reason: kev.partial ? kev.note : null,
    },
  ];
  const urlOf = (name: SourceStatus["source"]) => sourceStatus.find((s) => s.source === name)?.url ?? null;
  return {
    sources: {
      registry: urlOf("registry"),
      downloads: eco === "npm" ? urlOf("downloads") : null,
      osv: urlOf("osv"),
      npmAdvisories: eco === "npm" ? urlOf("npmAdvisories") : null,
      kev: kev.sourceUrl,
    },
    sourceStatus,
  };
}
