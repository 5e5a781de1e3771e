// GET /vulnerabilities/cve/{cveId}/: CVE advisory records and known-exploited entry.
// The procedure, with its contract (meta, input, output) beside its work.
import { cveInput, cveOutput } from "../../../vulnerabilities/api-schemas";
import { getCveOrThrow } from "../../../vulnerabilities";
import { meteredProcedure } from "../../trpc";
import { SEVERITY_RULE } from "./shared";

const CVE_DESCRIPTION = [
  "Advisory records for a CVE identifier and its exact entry in the CISA Known Exploited Vulnerabilities catalog.",
  "Body: `cveId`; `advisories` [{id, aliases, title, severity, publishedAt, modifiedAt, withdrawnAt, affected [{ecosystem, package, affectedRanges, fixedVersions}], references}]: OSV's record for the CVE and every record that aliases it (GHSA, PYSEC, GO, distribution advisories), across ecosystems, or null when OSV is unavailable; `advisoriesUnavailableReason` (why advisories is null); `knownExploited` (the catalog entry or null); `knownExploitedCatalog` {version, releasedAt, partial, origin}; `sources` {osv, kev}; `checkedAt`. " +
    SEVERITY_RULE,
  "400 INVALID_REQUEST for a malformed identifier (no unit consumed). 404 CVE_NOT_FOUND when neither OSV nor the catalog knows it. When OSV cannot answer: 200 with the local catalog entry and `advisories: null` plus the reason; 503 UPSTREAM_UNAVAILABLE only when the catalog has no entry either (neither part can be given). The unit counts whenever either part is given; a 503 gives it back.",
].join("\n\n");

export const cveProcedure = meteredProcedure({
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
  .query(({ input }) => getCveOrThrow(input.cveId));
