// Vulnerability evidence: package reports (npm compatibility route and the multi-ecosystem route), CVE lookups
// and the known-exploited catalog. The `vulnerabilities` capability (every plan), 1 unit each; malformed input is
// rejected by the zod schemas before any unit is reserved.
import {
  cveInput,
  cveOutput,
  kevSearchInput,
  kevSearchOutput,
  npmReportInput,
  npmReportOutput,
  packageReportInput,
  packageReportOutput,
} from "../../vulnerabilities/api-schemas";
import { getCveOrThrow, getNpmReportOrThrow, getPackageReportOrThrow, searchKev } from "../../vulnerabilities";
import { meteredProcedure, router } from "../trpc";

const SEVERITY_RULE =
  "Severity is one of critical, high, moderate, low, unknown: the advisory database's own label when it has one (GitHub's CRITICAL/HIGH/MODERATE/LOW, npm's levels), else the highest CVSS base score of the record (v4.0, v3.x or v2.0 vectors) banded >= 9.0 critical, >= 7.0 high, >= 4.0 moderate, otherwise low; unknown when neither exists.";

const NPM_DESCRIPTION = [
  "The npm package vulnerability report (compatibility route). Scoped names are URL-encoded: `/vulnerabilities/npm/%40babel%2Fcore/`.",
  'Body: `package` {name, ecosystem ("npm"), latestVersion, description, license, repositoryUrl} (strings, empty when the registry has none); `downloads` {weeklyDownloads, start, end} (last week, from npm\'s download-count service; 0 for a package it never counted); `summary` {total, highest (none|critical|high|moderate|low|unknown), counts {critical, high, moderate, low, unknown}}; `advisories` [{id, aliases, title, severity, publishedAt, modifiedAt, affectedRanges, fixedVersions, references}] most severe first; `sources` {npm, downloads, osv} (the upstream URLs used); `checkedAt`; `noAdvisoryCopy`.',
  "Advisories come from OSV (every record, fetched completely) merged by GHSA id/alias with the npm registry's bulk advisory endpoint (the source of `npm audit`); an advisory only npm lists has null dates and fixed versions computed from the published versions. " +
    SEVERITY_RULE,
  "404 PACKAGE_NOT_FOUND for an unknown or unpublished package. 503 UPSTREAM_UNAVAILABLE when the registry, the download counts or OSV cannot answer (the unit still counts). Upstream answers are cached for a few minutes; a repeated lookup still costs 1 unit.",
].join("\n\n");

const PACKAGE_DESCRIPTION = [
  "The package vulnerability report for npm, composer (vendor/package), pypi, maven (group:artifact) or go (module path; URL-encode slashes when they cannot be preserved). A superset of the npm report with the same field names.",
  "Query: `version` (exact registry version; the registry's latest when omitted; 404 VERSION_NOT_FOUND for a version the registry does not list), `limit` 1..500 (default 100) and `offset` >= 0 page the advisory list.",
  "Body: `package` {name, ecosystem, coordinate, latestVersion, description, license, repositoryUrl, versionCount} (null where the registry has no such field: the Go proxy carries no description or licence); `version` {selected, requested, isLatest, publishedAt, affected (true if any advisory affects it, null if some advisory cannot be decided)}; `downloads` (npm only, else null with `downloadsUnavailableReason`); `summary` {total, highest, counts, affectingSelectedVersion {total, highest, counts}} over all advisories; `advisories` (this page): the npm report's advisory fields plus `sources` (osv, npm), `versionVerdict` {affected, matchedRanges, nearestFixedVersion} and `knownExploited` (CISA KEV entries of the advisory's CVE ids); advisories affecting the selected version come first, then by severity and date; `knownExploited` (all KEV matches of the package, with `advisoryIds`); `knownExploitedCatalog` {version, releasedAt, partial, origin}; `pagination` {limit, offset, total, hasMore}; `sources` {registry, downloads, osv, npmAdvisories, kev} and `sourceStatus` [{source, url, status, fetchedAt, cached, reason}]; `checkedAt`; `noAdvisoryCopy`.",
  "Versions are compared in each ecosystem's own order: semver (npm; Go with its v prefix and pseudo-versions), PEP 440 (PyPI), Maven ComparableVersion, Composer's normalisation with PHP version_compare. OSV ranges (SEMVER, ECOSYSTEM; introduced, fixed, last_affected, limit events) and explicit version lists decide the verdict; commit-only (GIT) ranges without a version list give affected null. " +
    SEVERITY_RULE,
  "400 for an unknown ecosystem, a malformed coordinate, or limit/offset out of range (no unit consumed). 404 PACKAGE_NOT_FOUND / VERSION_NOT_FOUND. 503 UPSTREAM_UNAVAILABLE when the registry or OSV cannot answer.",
].join("\n\n");

const CVE_DESCRIPTION = [
  "Advisory records for a CVE identifier and its exact entry in the CISA Known Exploited Vulnerabilities catalog.",
  "Body: `cveId`; `advisories` [{id, aliases, title, severity, publishedAt, modifiedAt, withdrawnAt, affected [{ecosystem, package, affectedRanges, fixedVersions}], references}]: OSV's record for the CVE and every record that aliases it (GHSA, PYSEC, GO, distribution advisories), across ecosystems, or null when OSV is unavailable; `advisoriesUnavailableReason` (why advisories is null); `knownExploited` (the catalog entry or null); `knownExploitedCatalog` {version, releasedAt, partial, origin}; `sources` {osv, kev}; `checkedAt`. " +
    SEVERITY_RULE,
  "400 INVALID_REQUEST for a malformed identifier (no unit consumed). 404 CVE_NOT_FOUND when neither OSV nor the catalog knows it. When OSV cannot answer: 200 with the local catalog entry and `advisories: null` plus the reason; 503 UPSTREAM_UNAVAILABLE only when the catalog has no entry either (neither part can be given). The unit counts in every case.",
].join("\n\n");

const KEV_DESCRIPTION = [
  "Search the CISA Known Exploited Vulnerabilities catalog (public domain; the complete catalog ships, version 2025.08.25 with 1,404 records, and refreshes with `npm run admin -- feeds refresh --feed kev`).",
  "Query: `query` (free text, every word must occur), `vendor`, `product` (case-insensitive substrings), `cve` (exact), `cwe` (e.g. CWE-79: entries listing that weakness), `ransomware` (true/known or false/unknown), `added_since` / `added_until` (YYYY-MM-DD, inclusive), `limit` 1..500 (default 100), `offset` >= 0. Filters combine with AND; newest additions first.",
  "Body: `catalog` {version, releasedAt, count, partial, note, origin (shipped|refreshed), fetchedAt, sourceUrl}; `total`; `limit`; `offset`; `vulnerabilities` [{cveId, vendorProject, product, vulnerabilityName, dateAdded, shortDescription, requiredAction, dueDate, knownRansomwareCampaignUse, notes, cwes}]; `checkedAt`. When `catalog.partial` is true the data in use is a subset of the catalog and `catalog.note` says which part.",
].join("\n\n");

export const vulnerabilitiesRouter = router({
  npmReport: meteredProcedure({
    capability: "vulnerabilities",
    endpoint: "vulnerabilities.npm",
    input: npmReportInput,
    history: (input, out) => ({
      target: input.package,
      summary: { total: out.summary.total, highest: out.summary.highest },
    }),
  })
    .meta({
      errors: ["PACKAGE_NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/vulnerabilities/npm/{package}/",
        tags: ["Vulnerabilities"],
        summary: "npm package vulnerability report",
        description: NPM_DESCRIPTION,
      },
    })
    .output(npmReportOutput)
    .query(({ input }) => getNpmReportOrThrow({ name: input.package })),

  packageReport: meteredProcedure({
    capability: "vulnerabilities",
    endpoint: "vulnerabilities.package",
    input: packageReportInput,
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
    .query(({ input }) => getPackageReportOrThrow(input)),

  cve: meteredProcedure({
    capability: "vulnerabilities",
    endpoint: "vulnerabilities.cve",
    input: cveInput,
    history: (input, out) => ({
      target: input.cveId.toUpperCase(),
      summary: { advisories: out.advisories?.length ?? null, knownExploited: out.knownExploited !== null },
    }),
  })
    .meta({
      errors: ["CVE_NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/vulnerabilities/cve/{cveId}/",
        tags: ["Vulnerabilities"],
        summary: "CVE advisory records and known-exploited entry",
        description: CVE_DESCRIPTION,
      },
    })
    .output(cveOutput)
    .query(({ input }) => getCveOrThrow(input.cveId)),

  kev: meteredProcedure({
    capability: "vulnerabilities",
    endpoint: "vulnerabilities.kev",
    input: kevSearchInput,
    history: (input, out) => ({
      target: input.query ?? input.cve ?? input.vendor ?? "kev",
      summary: { total: out.total },
    }),
  })
    .meta({
      openapi: {
        method: "GET",
        path: "/vulnerabilities/kev/",
        tags: ["Vulnerabilities"],
        summary: "Search the known-exploited vulnerabilities catalog",
        description: KEV_DESCRIPTION,
      },
    })
    .output(kevSearchOutput)
    .query(({ input }) =>
      searchKev({
        query: input.query,
        vendor: input.vendor,
        product: input.product,
        cve: input.cve,
        cwe: input.cwe,
        ransomware: input.ransomware,
        addedSince: input.added_since,
        addedUntil: input.added_until,
        limit: input.limit,
        offset: input.offset,
      }),
    ),
});
