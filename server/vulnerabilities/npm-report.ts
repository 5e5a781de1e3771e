// The npm package vulnerability report of `GET /vulnerabilities/npm/{package}/`, exactly the spec's shape.
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
  const pkg = requireSource(registry, "npm registry").value;
  // A package the registry has but the download service has never counted has had no downloads.
  const weekly =
    downloads.kind === "not_found"
      ? { weeklyDownloads: 0, ...lastWeekWindow() }
      : requireSource(downloads, "npm download-count service").value;
  const osvRecords = requireSource(osv, "OSV advisory database").value;

  const fromOsv = osvRecords.map((v) => advisoryFromOsv("npm", pkg.name, v));
  const fromNpm: Advisory[] = bulk?.kind === "ok" ? bulk.value.map((a) => advisoryFromNpm(a, pkg.versions)) : [];
  const advisories = mergeAdvisories(fromOsv, fromNpm).sort(compareAdvisories);

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
    sources: { npm: npmPackageUrl(name) ?? "", downloads: npmDownloadsPointUrl(name), osv: osvQueryBatchUrl() },
    checkedAt: new Date().toISOString(),
    noAdvisoryCopy: NO_ADVISORY_COPY,
  };
}
