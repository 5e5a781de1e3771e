// The npm package vulnerability report of `GET /vulnerabilities/npm/{package}/`: the spec's shape, plus `malware`, where
// reports of malicious releases (OSV MAL- records) are kept apart from the advisories, as the other reports keep them.
import { AppError } from "../errors";
import { getWeeklyDownloads, npmDownloadsPointUrl } from "../providers/packages/npm-downloads";
import { getNpmBulkAdvisories, getNpmPackage, npmPackageUrl } from "../providers/packages/npm-registry";
import { getOsvAdvisoriesForPackage, osvQueryBatchUrl } from "../providers/packages/osv";
import { advisoryFromNpm, advisoryFromOsv, compareAdvisories, mergeAdvisories, type Advisory } from "./advisories";
import { coordinateProblem } from "./coordinates";
import {
  lastWeekWindow,
  NO_ADVISORY_COPY,
  publicAdvisory,
  requireSource,
  sortOsvRecords,
  summarise,
  type Summary,
} from "./report-common";

export type NpmReport = {
  package: {
    name: string;
    ecosystem: "npm";
    latestVersion: string;
    description: string;
    license: string;
    repositoryUrl: string;
  };
  downloads: { weeklyDownloads: number; start: string; end: string };
  summary: Summary;
  advisories: Array<ReturnType<typeof publicAdvisory>>;
  malware: {
    anyVersion: boolean;
    severity: "critical" | null;
    reports: Array<Omit<ReturnType<typeof publicAdvisory>, "severity" | "fixedVersions">>;
  };
  sources: { npm: string; downloads: string; osv: string };
  checkedAt: string;
  noAdvisoryCopy: string;
};

/**
 * Registry metadata, last week's downloads and every published advisory (OSV, merged with the registry's own
 * bulk advisories). 404 PACKAGE_NOT_FOUND for an unknown package; 503 UPSTREAM_UNAVAILABLE when the registry,
 * the download counts or OSV cannot answer. The registry's advisory endpoint is a second source: when only it
 * fails, the report is still complete from OSV.
 */
export async function getNpmReportOrThrow({ name }: { name: string }): Promise<NpmReport> {
  const problem = coordinateProblem("npm", name);
  if (problem) throw new AppError("INVALID_REQUEST", problem);
  const registryP = getNpmPackage(name);
  const bulkP = registryP.then((r) => (r.kind === "ok" ? getNpmBulkAdvisories(r.value.name, r.value.versions) : null));
  const [registry, downloads, osv, bulk] = await Promise.all([
    registryP,
    getWeeklyDownloads(name),
    getOsvAdvisoriesForPackage(name, "npm"),
    bulkP,
  ]);
  if (registry.kind === "not_found") throw new AppError("PACKAGE_NOT_FOUND", `No npm package named "${name}".`);
  const pkg = requireSource(registry, "the npm registry").value;
  // A package the registry has but the download service has never counted has had no downloads.
  const weekly =
    downloads.kind === "not_found"
      ? { weeklyDownloads: 0, ...lastWeekWindow() }
      : requireSource(downloads, "the npm download-count service").value;
  const osvRecords = requireSource(osv, "the OSV advisory database").value;

  // Withdrawn records are left out, and reports of malicious releases are malware, not advisories (as in the other
  // reports); the registry's copy of either (same GHSA id) is left out with it.
  const sorted = sortOsvRecords(osvRecords);
  const fromOsv = sorted.vulnerabilities.map((v) => advisoryFromOsv("npm", pkg.name, v));
  const fromNpm: Advisory[] = bulk?.kind === "ok" ? bulk.value.map((a) => advisoryFromNpm(a, pkg.versions)) : [];
  const advisories = mergeAdvisories(fromOsv, sorted.fromRegistry(fromNpm)).sort(compareAdvisories);
  const malwareReports = sorted.malware
    .map((v) => advisoryFromOsv("npm", pkg.name, v))
    .sort(compareAdvisories)
    .map(({ id, aliases, title, publishedAt, modifiedAt, affectedRanges, references }) => ({
      id,
      aliases,
      title,
      publishedAt,
      modifiedAt,
      affectedRanges,
      references,
    }));

  return {
    package: {
      name: pkg.name,
      ecosystem: "npm",
      latestVersion: pkg.latestVersion ?? "",
      description: pkg.description ?? "",
      license: pkg.license ?? "",
      repositoryUrl: pkg.repositoryUrl ?? "",
    },
    downloads: weekly,
    summary: summarise(advisories),
    advisories: advisories.map(publicAdvisory),
    malware: {
      anyVersion: malwareReports.length > 0,
      severity: malwareReports.length > 0 ? "critical" : null,
      reports: malwareReports,
    },
    sources: { npm: npmPackageUrl(name) ?? "", downloads: npmDownloadsPointUrl(name), osv: osvQueryBatchUrl() },
    checkedAt: new Date().toISOString(),
    noAdvisoryCopy: NO_ADVISORY_COPY,
  };
}
