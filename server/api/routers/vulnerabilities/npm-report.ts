// GET /vulnerabilities/npm/{package}/: npm package vulnerability report.
// The procedure, with its contract (meta, input, output) beside its work.
import { npmReportInput, npmReportOutput } from "../../../vulnerabilities/api-schemas";
import { getNpmReportOrThrow } from "../../../vulnerabilities";
import { meteredProcedure } from "../../trpc";
import { SEVERITY_RULE } from "./shared";

const NPM_DESCRIPTION = [
  "The npm package vulnerability report (compatibility route). Scoped names are URL-encoded: `/vulnerabilities/npm/%40babel%2Fcore/`.",
  'Body: `package` {name, ecosystem ("npm"), latestVersion, description, license, repositoryUrl} (strings, empty when the registry has none); `downloads` {weeklyDownloads, start, end} (last week, from npm\'s download-count service; 0 for a package it never counted); `summary` {total, highest (none|critical|high|moderate|low|unknown), counts {critical, high, moderate, low, unknown}}; `advisories` [{id, aliases, title, severity, publishedAt, modifiedAt, affectedRanges, fixedVersions, references}] most severe first; `malware` {anyVersion, severity ("critical" or null), reports [{id, aliases, title, publishedAt, modifiedAt, affectedRanges, references}]}; `sources` {npm, downloads, osv} (the upstream URLs used); `checkedAt`; `noAdvisoryCopy`.',
  "Advisories come from OSV (every record, fetched completely) merged by GHSA id/alias with the npm registry's bulk advisory endpoint (the source of `npm audit`); an advisory only npm lists has null dates and fixed versions computed from the published versions. Reports of malicious releases (OSV MAL- records, the OpenSSF Malicious Packages feed) are never among `advisories` or counted in `summary`: they are listed in `malware` (`affectedRanges` names the malicious versions; `GET /vulnerabilities/packages/npm/{package}/?version=` says whether a given version is one). Withdrawn records, malware or not, are left out, and so is the registry's copy of a withdrawn or malware record. " +
    SEVERITY_RULE,
  "404 PACKAGE_NOT_FOUND for an unknown or unpublished package. 503 UPSTREAM_UNAVAILABLE when the registry, the download counts or OSV cannot answer (its unit is given back, so a retry is safe). Upstream answers are cached for a few minutes; a repeated lookup still costs 1 unit.",
].join("\n\n");

export const npmReportProcedure = meteredProcedure({
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
  .query(({ input }) => getNpmReportOrThrow({ name: input.package }));
