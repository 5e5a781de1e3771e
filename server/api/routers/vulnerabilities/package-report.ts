// GET /vulnerabilities/packages/{ecosystem}/{coordinate}/:
// package vulnerability report (npm, composer, pypi, maven, go).
// The procedure, with its contract (meta, input, output) beside its work.
import { packageReportInput, packageReportOutput } from "../../../vulnerabilities/api-schemas";
import { getPackageReportOrThrow } from "../../../vulnerabilities";
import { meteredProcedure } from "../../trpc";
import { SEVERITY_RULE } from "./shared";

const PACKAGE_DESCRIPTION = [
  "The package vulnerability report for npm, composer (vendor/package), pypi, maven (group:artifact) or go (module path; URL-encode slashes when they cannot be preserved). A superset of the npm report with the same field names.",
  "Query: `version` (exact registry version; the registry's latest when omitted; 404 VERSION_NOT_FOUND for a version the registry does not list), `limit` 1..500 (default 100) and `offset` >= 0 page the advisory list.",
  "Body: `package` {name, ecosystem, coordinate, latestVersion, description, license, repositoryUrl, versionCount} (null where the registry has no such field: the Go proxy carries no description or licence); `version` {selected, requested, isLatest, publishedAt, affected (true if any advisory affects it, null if some advisory cannot be decided)}; `malware` {selectedVersion, anyVersion, severity, reports} (reports of malicious releases, OSV MAL- records: kept apart from the advisories and never counted in `summary` or `version.affected`; withdrawn records, malware or not, are left out); `downloads` (npm only, else null with `downloadsUnavailableReason`); `summary` {total, highest, counts, affectingSelectedVersion {total, highest, counts}} over all advisories; `advisories` (this page): the npm report's advisory fields plus `sources` (osv, npm), `versionVerdict` {affected, matchedRanges, nearestFixedVersion} and `knownExploited` (CISA KEV entries of the advisory's CVE ids); advisories affecting the selected version come first, then by severity and date; `knownExploited` (all KEV matches of the package, with `advisoryIds`); `knownExploitedCatalog` {version, releasedAt, partial, origin}; `pagination` {limit, offset, total, hasMore}; `sources` {registry, downloads, osv, npmAdvisories, kev} and `sourceStatus` [{source, url, status, fetchedAt, cached, reason}]; `checkedAt`; `noAdvisoryCopy`.",
  "Versions are compared in each ecosystem's own order: semver (npm; Go with its v prefix and pseudo-versions), PEP 440 (PyPI), Maven ComparableVersion, Composer's normalisation with PHP version_compare. OSV ranges (SEMVER, ECOSYSTEM; introduced, fixed, last_affected, limit events) and explicit version lists decide the verdict; commit-only (GIT) ranges without a version list give affected null. " +
    SEVERITY_RULE,
  "400 for an unknown ecosystem, a malformed coordinate, or limit/offset out of range (no unit consumed). 404 PACKAGE_NOT_FOUND / VERSION_NOT_FOUND. 503 UPSTREAM_UNAVAILABLE when the registry or OSV cannot answer.",
].join("\n\n");

export const packageReportProcedure = meteredProcedure({
  capability: "vulnerabilities",
  endpoint: "vulnerabilities.package",
  input: packageReportInput,
  // A failed lookup's history entry names the package as asked (a success names the version the answer selected).
  target: (input) => `${input.ecosystem}:${input.coordinate}${input.version ? `@${input.version}` : ""}`,
  history: (input, out) => ({
    target: `${input.ecosystem}:${input.coordinate}@${out.version.selected}`,
    summary: {
      total: out.summary.total,
      highest: out.summary.highest,
      affected: out.version.affected,
      knownExploited: out.knownExploited.length,
    },
  }),
})
  .meta({
    errors: ["PACKAGE_NOT_FOUND", "VERSION_NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/vulnerabilities/packages/{ecosystem}/{coordinate}/",
      tags: ["Vulnerabilities"],
      summary: "Package vulnerability report (npm, composer, pypi, maven, go)",
      description: PACKAGE_DESCRIPTION,
    },
  })
  .output(packageReportOutput)
  .query(({ input }) => getPackageReportOrThrow(input));
