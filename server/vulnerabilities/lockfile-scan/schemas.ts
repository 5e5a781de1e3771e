// zod schemas of the dependency scan's input and answer (the severity, KEV match, finding and verdict shapes are the
// package report's, from api-schemas.ts). The OpenAPI document is generated from these, so every
// field carries its meaning here; the SARIF and CSV renderings read the same types.
import { z } from "zod";
import { LOCKFILE_FORMATS } from "../lockfiles/types";
import { ECOSYSTEMS } from "../versions";
import { MAX_SCAN_BYTES } from "./read";
import { kevMatch as reportKevMatch, packageVerdictSchema, severity, supplyChainFinding } from "../api-schemas";

export const scanInputShape = {
  lockfile: z.string().max(MAX_SCAN_BYTES).describe("The lockfile or SBOM text (the raw request body on the REST API)"),
  format: z.enum(LOCKFILE_FORMATS).optional().describe("The file's format; recognised from the content when omitted"),
};

const kevMatch = reportKevMatch.extend({
  advisoryIds: z.array(z.string()).describe("The package's advisories that name this CVE"),
});

const epss = z
  .object({
    cve: z.string().describe("The CVE id scored (the advisory's highest-scored CVE alias)"),
    epss: z.number().describe("Probability of exploitation activity in the next 30 days, 0..1"),
    percentile: z.number().describe("Rank of that probability among all scored CVEs, 0..1"),
    date: z.string().nullable().describe("The day the score was computed (YYYY-MM-DD)"),
  })
  .nullable();

const scanAdvisory = z.object({
  id: z.string().describe("OSV id (GHSA-..., PYSEC-..., GO-...)"),
  aliases: z.array(z.string()),
  summary: z.string(),
  severity,
  affected: z
    .boolean()
    .nullable()
    .describe("true when the version is inside an affected range; null when only commit ranges exist to decide"),
  fixedVersions: z.array(z.string()).describe("Versions that fix it, in the ecosystem's order"),
  nearestFixedVersion: z.string().nullable().describe("Lowest fixed version above the scanned one"),
  kev: z.boolean().describe("A CVE of this advisory is in the CISA Known Exploited Vulnerabilities catalog"),
  epss: epss.describe("EPSS score of the advisory's CVE (its highest, when it has several); null with epssReason"),
  epssReason: z.string().nullable().describe("Why epss is null: no CVE id, no source configured, source unavailable"),
});

const malwareReport = z.object({
  id: z.string().describe("OSV id of the report, e.g. MAL-2025-1234"),
  aliases: z.array(z.string()),
  summary: z.string(),
  publishedAt: z.string().nullable(),
  modifiedAt: z.string().nullable(),
  affectedRanges: z.array(z.string()).describe("The versions the report names as malicious"),
});

const registryStatus = z.object({
  status: z.enum(["ok", "not_found", "unavailable"]),
  reason: z.string().nullable().describe("Why the supply-chain findings are missing, when they are"),
  fetchedAt: z.string().nullable(),
});

const typosquatCheck = z
  .object({
    status: z
      .enum(["ok", "unavailable"])
      .describe(
        "ok: the name was checked; unavailable: the check could not be done (see reason), so a typosquat finding may be missing or unconfirmed",
      ),
    reason: z
      .string()
      .nullable()
      .describe(
        "What could not be checked: the popular-name list, or for a name near a popular one npm's download counts or a registry document (own-fork rule) that did not answer",
      ),
  })
  .describe(
    "Whether the name's typosquat check was done; the source typosquat:<ecosystem> counts the packages without it",
  );

export const scannedPackage = z.object({
  ecosystem: z.enum(ECOSYSTEMS),
  name: z.string(),
  version: z.string(),
  line: z.number().int().nullable().describe("1-based line of the package's first appearance in the file"),
  dev: z.boolean().nullable().describe("A development-only dependency; null when the format does not say"),
  verdict: packageVerdictSchema,
  malware: z.boolean().describe("An OpenSSF malicious-package report (OSV MAL-) covers this version"),
  malwareReports: z.array(malwareReport),
  advisories: z.array(scanAdvisory).describe("Advisories affecting this exact version, most severe first"),
  kev: z.array(kevMatch).describe("Known-exploited CVEs among the advisories"),
  findings: z.array(supplyChainFinding).describe("Supply-chain findings from the registry and the typosquat check"),
  fixedIn: z
    .string()
    .nullable()
    .describe("Smallest version that fixes every affecting advisory; null when none does or none affects"),
  registry: registryStatus,
  typosquatCheck,
});

const upgrade = z.object({
  ecosystem: z.enum(ECOSYSTEMS),
  name: z.string(),
  from: z.string(),
  to: z.string().nullable().describe("fixedIn; null for malware (remove it) or when no version fixes everything"),
  malware: z.boolean(),
  fixes: z.array(z.string()).describe("Advisory ids fixed by moving to `to`"),
  maxSeverity: severity,
  maxEpss: z.number().nullable(),
  kev: z.boolean().describe("An affecting advisory's CVE is in the CISA Known Exploited Vulnerabilities catalog"),
});

const counts = z.object({
  critical: z.number().int(),
  high: z.number().int(),
  moderate: z.number().int(),
  low: z.number().int(),
  unknown: z.number().int(),
});

const sourceStatus = z.object({
  source: z
    .string()
    .describe(
      "osv, kev, epss, registry:<ecosystem>, popularNames:<ecosystem>, typosquat:<ecosystem> (the typosquat check of each name: partial or unavailable names the packages it could not check)",
    ),
  url: z.string().nullable(),
  status: z.enum(["ok", "partial", "unavailable", "not_configured", "not_applicable"]),
  fetchedAt: z.string().nullable().describe("When the oldest answer used was fetched (dated evidence)"),
  cached: z.boolean(),
  reason: z.string().nullable(),
});

export const scanOutput = z.object({
  format: z.enum(LOCKFILE_FORMATS),
  packages: z.array(scannedPackage).describe("Every distinct package version: malware first, then by verdict score"),
  skipped: z
    .array(z.object({ name: z.string(), spec: z.string(), reason: z.string(), line: z.number().int().nullable() }))
    .describe(
      "Entries that are no registry package version, not scanned and not charged, each with its reason and line: dependencies from git, a file, a link or the workspace, and names the registry could never have published",
    ),
  summary: z.object({
    packages: z.number().int(),
    vulnerable: z.number().int().describe("Package versions with at least one affecting advisory (malware apart)"),
    malware: z.number().int().describe("Package versions with a malware report"),
    bySeverity: counts.describe("Affecting advisories by severity, counted once per package version"),
    byFinding: z.record(z.string(), z.number().int()).describe("Supply-chain findings by kind"),
    upgrades: z
      .array(upgrade)
      .describe("What to upgrade or remove: malware first, then known-exploited (KEV), then severity, then EPSS"),
  }),
  sources: z.array(sourceStatus),
  checkedAt: z.string(),
  noAdvisoryCopy: z.string(),
});

export type ScanReport = z.infer<typeof scanOutput>;
export type ScannedPackage = z.infer<typeof scannedPackage>;
export type ScanSource = z.infer<typeof sourceStatus>;
