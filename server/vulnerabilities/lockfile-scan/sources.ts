// Which sources a scan used, where, whether each answered, and when (dated evidence, as the package report names
// its sources): OSV, the known-exploited catalog, EPSS, each ecosystem's registry (over all its packages) and the
// popular-name list behind the typosquat check, and the typosquat check itself (the packages it could not check).
import type { EpssLookup } from "../../providers/epss";
import { goProxyUrl, mavenRepositoryUrl, npmRegistryUrl, packagistUrl, pypiUrl } from "../../providers/packages/config";
import { osvQueryBatchUrl } from "../../providers/packages/osv";
import { kevCatalogInfo } from "../kev-catalog";
import { popularNamesInfo } from "../popular-names";
import type { Ecosystem } from "../versions";
import type { RegistryFacts } from "./registry-facts";
import type { ScanSource } from "./schemas";

const REGISTRY_BASE: Record<Ecosystem, () => string | null> = {
  npm: npmRegistryUrl,
  pypi: pypiUrl,
  composer: packagistUrl,
  go: goProxyUrl,
  maven: mavenRepositoryUrl,
};

function registrySource(eco: Ecosystem, facts: RegistryFacts[]): ScanSource {
  const failed = facts.filter((f) => f.registry.kind === "unavailable");
  const answered = facts.flatMap((f) => (f.registry.kind === "ok" ? [f.registry] : []));
  const first = failed[0]?.registry;
  return {
    source: `registry:${eco}`,
    url: REGISTRY_BASE[eco](),
    status: failed.length === 0 ? "ok" : failed.length === facts.length ? "unavailable" : "partial",
    fetchedAt: answered.map((r) => r.fetchedAt).sort()[0] ?? null,
    cached: answered.length > 0 && answered.every((r) => r.cached),
    reason:
      first?.kind === "unavailable"
        ? `${failed.length} of ${facts.length} packages could not be looked up (${first.reason})`
        : null,
  };
}

/** Names shown in a source's reason; the packages' own `typosquatCheck` has every one. */
const NAMES_SHOWN = 10;

/** The typosquat check over an ecosystem's names: which packages it could not check, and the first reason. */
function typosquatSource(eco: Ecosystem, facts: RegistryFacts[]): ScanSource {
  const failed = facts.filter((f) => f.typosquatCheck.status !== "ok");
  const names = failed.slice(0, NAMES_SHOWN).map((f) => f.name);
  const more = failed.length > NAMES_SHOWN ? ` and ${failed.length - NAMES_SHOWN} more` : "";
  return {
    source: `typosquat:${eco}`,
    url: null,
    status: failed.length === 0 ? "ok" : failed.length === facts.length ? "unavailable" : "partial",
    fetchedAt: null,
    cached: false,
    reason:
      failed.length === 0
        ? null
        : `${failed.length} of ${facts.length} packages could not be checked (${names.join(", ")}${more}): ${failed[0]!.name}: ${failed[0]!.typosquatCheck.reason}`,
  };
}

export function scanSources(a: {
  osv: { fetchedAt: string; cached: boolean };
  epss: EpssLookup;
  cveCount: number;
  registries: Map<Ecosystem, RegistryFacts[]>;
}): ScanSource[] {
  const kev = kevCatalogInfo();
  const epss: ScanSource =
    a.cveCount === 0 && a.epss.status !== "not_configured"
      ? {
          source: "epss",
          url: a.epss.url,
          status: "not_applicable",
          fetchedAt: null,
          cached: false,
          reason: "no affecting advisory names a CVE id",
        }
      : {
          source: "epss",
          url: a.epss.url,
          status: a.epss.status,
          fetchedAt: a.epss.fetchedAt,
          cached: a.epss.cached,
          reason: a.epss.reason,
        };
  const sources: ScanSource[] = [
    {
      source: "osv",
      url: osvQueryBatchUrl(),
      status: "ok",
      fetchedAt: a.osv.fetchedAt,
      cached: a.osv.cached,
      reason: null,
    },
    {
      source: "kev",
      url: kev.sourceUrl,
      status: "ok",
      fetchedAt: kev.fetchedAt,
      cached: true,
      reason: kev.partial ? kev.note : null,
    },
    epss,
  ];
  for (const [eco, facts] of a.registries) {
    sources.push(registrySource(eco, facts));
    const popular = popularNamesInfo(eco);
    sources.push({
      source: `popularNames:${eco}`,
      url: /^https?:\/\//.test(popular.source) ? popular.source : null,
      status: popular.reason ? "not_configured" : "ok",
      fetchedAt: popular.date,
      cached: true,
      reason: popular.reason,
    });
    sources.push(typosquatSource(eco, facts));
  }
  return sources;
}
