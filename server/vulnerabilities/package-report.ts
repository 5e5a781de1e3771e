// The multi-ecosystem report of `GET /vulnerabilities/packages/{ecosystem}/{coordinate}/`: a superset of the npm
// report that adds the selected version, an exact verdict per advisory for that version, known-exploited
// catalog matches and paging of the advisory list.
import { AppError } from "../errors";
import { getGoVersionTime } from "../providers/packages/go-proxy";
import type { Fetched } from "../providers/packages/http";
import { getWeeklyDownloads } from "../providers/packages/npm-downloads";
import { getNpmBulkAdvisories } from "../providers/packages/npm-registry";
import { getOsvAdvisoriesForPackage } from "../providers/packages/osv";
import { advisoryFromNpm, advisoryFromOsv, compareAdvisories, mergeAdvisories, type Advisory } from "./advisories";
import { coordinateProblem } from "./coordinates";
import { findKevEntry, kevCatalogInfo, type KevCatalogInfo } from "./kev-catalog";
import { lookupRegistry, REGISTRY_NAME } from "./registry";
import {
  lastWeekWindow,
  NO_ADVISORY_COPY,
  publicAdvisory,
  requireSource,
  sentence,
  sortOsvRecords,
  summarise,
} from "./report-common";
import { buildSources, type SourceStatus } from "./report-sources";
import { supplyChainFindings } from "./supply-chain";
import { findTyposquat, unlessOwnFork } from "./typosquat-check";
import { packageVerdict } from "./verdict";
import { OSV_ECOSYSTEM, sortVersions, type Ecosystem } from "./versions";

export type PackageReportInput = {
  ecosystem: Ecosystem;
  coordinate: string;
  version?: string;
  limit: number;
  offset: number;
};

export type KevMatch = {
  cveId: string;
  vendorProject: string;
  product: string;
  vulnerabilityName: string;
  dateAdded: string;
  dueDate: string | null;
  requiredAction: string;
  knownRansomwareCampaignUse: string;
};

function kevMatches(a: Advisory): KevMatch[] {
  const cves = [a.id, ...a.aliases].filter((id) => /^CVE-/i.test(id));
  return [...new Set(cves.map((c) => c.toUpperCase()))].flatMap((cve) => {
    const e = findKevEntry(cve);
    if (!e) return [];
    const {
      cveId,
      vendorProject,
      product,
      vulnerabilityName,
      dateAdded,
      dueDate,
      requiredAction,
      knownRansomwareCampaignUse,
    } = e;
    return [
      {
        cveId,
        vendorProject,
        product,
        vulnerabilityName,
        dateAdded,
        dueDate,
        requiredAction,
        knownRansomwareCampaignUse,
      },
    ];
  });
}

function selectVersion(eco: Ecosystem, versions: string[], latest: string | null, requested?: string): string {
  if (requested !== undefined) {
    if (!versions.includes(requested)) {
      throw new AppError("VERSION_NOT_FOUND", `The registry lists no version "${requested}" of this package.`);
    }
    return requested;
  }
  const fallback = sortVersions(eco, versions).pop() ?? versions[versions.length - 1];
  const chosen = latest && versions.includes(latest) ? latest : fallback;
  if (!chosen) throw new AppError("VERSION_NOT_FOUND", "The registry lists no version of this package.");
  return chosen;
}

export async function getPackageReportOrThrow(input: PackageReportInput) {
  const { ecosystem: eco, coordinate, limit, offset } = input;
  const problem = coordinateProblem(eco, coordinate);
  if (problem) throw new AppError("INVALID_REQUEST", problem);
  const registryP = lookupRegistry(eco, coordinate);
  const bulkP =
    eco === "npm"
      ? registryP.then((r) => (r.kind === "ok" ? getNpmBulkAdvisories(r.value.name, r.value.versions) : null))
      : Promise.resolve(null);
  const osvName = eco === "composer" ? coordinate.toLowerCase() : coordinate;
  const [registry, osv, downloads, bulk] = await Promise.all([
    registryP,
    getOsvAdvisoriesForPackage(osvName, OSV_ECOSYSTEM[eco]),
    eco === "npm" ? getWeeklyDownloads(coordinate) : Promise.resolve(null),
    bulkP,
  ]);
  if (registry.kind === "not_found")
    throw new AppError("PACKAGE_NOT_FOUND", `No ${eco} package "${coordinate}" in ${REGISTRY_NAME[eco]}.`);
  const reg = requireSource(registry, REGISTRY_NAME[eco]);
  const pkg = reg.value;
  const selected = selectVersion(eco, pkg.versions, pkg.latestVersion, input.version);
  const records = requireSource(osv, "the OSV advisory database").value;

  const fromNpm = bulk?.kind === "ok" ? bulk.value.map((a) => advisoryFromNpm(a, pkg.versions)) : [];
  // Withdrawn records are not reported; reports of malicious releases (OSV's MAL- records, the OpenSSF Malicious
  // Packages feed) are malware findings of their own, never counted among the vulnerabilities (issue 25, item 2).
  const sorted = sortOsvRecords(records);
  const malicious = sorted.malware;
  const merged = mergeAdvisories(
    sorted.vulnerabilities.map((v) => advisoryFromOsv(eco, pkg.name, v)),
    sorted.fromRegistry(fromNpm),
  );
  const malwareReports = malicious.map((v) => {
    const a = advisoryFromOsv(eco, pkg.name, v);
    const verdict = a.verdictFor(selected);
    return {
      id: a.id,
      aliases: a.aliases,
      title: a.title,
      publishedAt: a.publishedAt,
      modifiedAt: a.modifiedAt,
      affectedRanges: a.affectedRanges,
      references: a.references,
      affectsSelectedVersion: verdict.affected,
    };
  });
  const rows = merged.map((a) => ({ a, verdict: a.verdictFor(selected), kev: kevMatches(a) }));
  const rank = (affected: boolean | null) => (affected === true ? 0 : affected === null ? 1 : 2);
  rows.sort((x, y) => rank(x.verdict.affected) - rank(y.verdict.affected) || compareAdvisories(x.a, y.a));
  const affecting = rows.filter((r) => r.verdict.affected === true);

  const publishedAt = pkg.publishedAt[selected] ?? (eco === "go" ? await getGoVersionTime(pkg.name, selected) : null);
  const kevByCve = new Map<string, KevMatch & { advisoryIds: string[] }>();
  for (const r of rows)
    for (const k of r.kev) {
      const hit = kevByCve.get(k.cveId) ?? { ...k, advisoryIds: [] };
      hit.advisoryIds.push(r.a.id);
      kevByCve.set(k.cveId, hit);
    }
  const downloadsValue =
    downloads?.kind === "ok"
      ? downloads.value
      : downloads?.kind === "not_found"
        ? { weeklyDownloads: 0, ...lastWeekWindow() }
        : null;
  // The typosquat check reuses the weekly downloads already fetched (npm); PyPI's counts come from its list.
  const match = await findTyposquat(eco, pkg.name, { weeklyDownloads: downloadsValue?.weeklyDownloads ?? null });
  const typosquat = await unlessOwnFork(eco, pkg, match);
  const findings = supplyChainFindings(eco, pkg, selected, new Date(), typosquat);
  const malwareSelected = malwareReports.some((m) => m.affectsSelectedVersion === true);
  const verdict = packageVerdict({
    malware: malwareSelected,
    advisories: affecting.map((r) => ({ id: r.a.id, severity: r.a.severity, kev: r.kev.length > 0, epss: null })),
    findings,
  });
  const { sources, sourceStatus } = buildSources(eco, {
    registry: reg,
    osv: osv as Fetched<unknown>,
    downloads,
    npmAdvisories: bulk,
  });
  const kevInfo: KevCatalogInfo = kevCatalogInfo();

  return {
    package: {
      name: pkg.name,
      ecosystem: eco,
      coordinate,
      latestVersion: pkg.latestVersion,
      description: pkg.description,
      license: pkg.license,
      repositoryUrl: pkg.repositoryUrl,
      versionCount: pkg.versions.length,
    },
    version: {
      selected,
      requested: input.version ?? null,
      isLatest: selected === pkg.latestVersion,
      publishedAt,
      affected: affecting.length > 0 ? true : rows.some((r) => r.verdict.affected === null) ? null : false,
    },
    malware: {
      selectedVersion: malwareSelected,
      anyVersion: malwareReports.length > 0,
      severity: malwareReports.length > 0 ? ("critical" as const) : null,
      reports: malwareReports,
    },
    downloads: downloadsValue,
    downloadsUnavailableReason: downloadsValue
      ? null
      : eco === "npm"
        ? `The npm download-count service is unavailable${downloads?.kind === "unavailable" ? ` (${downloads.reason})` : ""}.`
        : `${sentence(REGISTRY_NAME[eco])} publishes no download counts.`,
    findings,
    verdict,
    summary: { ...summarise(merged), affectingSelectedVersion: summarise(affecting.map((r) => r.a)) },
    advisories: rows.slice(offset, offset + limit).map((r) => ({
      ...publicAdvisory(r.a),
      sources: r.a.sources,
      versionVerdict: r.verdict,
      knownExploited: r.kev,
    })),
    knownExploited: [...kevByCve.values()],
    knownExploitedCatalog: {
      version: kevInfo.version,
      releasedAt: kevInfo.releasedAt,
      partial: kevInfo.partial,
      origin: kevInfo.origin,
    },
    pagination: { limit, offset, total: rows.length, hasMore: offset + limit < rows.length },
    sources,
    sourceStatus: sourceStatus satisfies SourceStatus[],
    checkedAt: new Date().toISOString(),
    noAdvisoryCopy: NO_ADVISORY_COPY,
  };
}

export type PackageReport = Awaited<ReturnType<typeof getPackageReportOrThrow>>;
