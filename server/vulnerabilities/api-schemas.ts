// zod schemas of the vulnerability routes' inputs and answers. The OpenAPI document is generated from these, so
// every field carries its meaning here.
import { z } from "zod";
import { coordinateProblem, CVE_ID_PATTERN } from "./coordinates";
import { ECOSYSTEMS } from "./versions";

/** Path parameters may still carry percent-encoding (%40babel%2Fcore); no valid coordinate contains "%". */
const decoded = z.string().transform((s) => {
  if (!s.includes("%")) return s.trim();
  try {
    return decodeURIComponent(s).trim();
  } catch {
    return s;
  }
});

const limit = z.coerce.number().int().min(1).max(500).default(100).describe("Page size, 1..500 (default 100)");
const offset = z.coerce.number().int().min(0).default(0).describe("Items to skip, >= 0 (default 0)");

export const npmReportInput = z.object({
  package: decoded.refine((s) => coordinateProblem("npm", s) === null, {
    message: "must be an npm package name such as express or @babel/core (URL-encode scoped names)",
  }),
});

export const packageReportInput = z
  .object({
    ecosystem: z.enum(ECOSYSTEMS),
    coordinate: decoded,
    version: z.string().trim().min(1).max(256).optional().describe("Exact registry version; the latest when omitted"),
    limit,
    offset,
  })
  .superRefine((v, ctx) => {
    const problem = coordinateProblem(v.ecosystem, v.coordinate);
    if (problem) ctx.addIssue({ code: "custom", path: ["coordinate"], message: problem });
  });

export const cveInput = z.object({
  cveId: decoded.refine((s) => CVE_ID_PATTERN.test(s), { message: "must be a CVE identifier such as CVE-2021-44228" }),
});

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD");

export const kevSearchInput = z
  .object({
    query: z
      .string()
      .trim()
      .max(200)
      .optional()
      .describe("Free text; every word must occur in the CVE id, vendor, product, name, description, notes or CWE"),
    vendor: z.string().trim().max(200).optional().describe("Substring of vendorProject, case-insensitive"),
    product: z.string().trim().max(200).optional().describe("Substring of product, case-insensitive"),
    cve: z.string().trim().regex(CVE_ID_PATTERN, "must be a CVE identifier such as CVE-2021-44228").optional(),
    cwe: z
      .string()
      .trim()
      .regex(/^CWE-\d{1,5}$/i, "must be a CWE identifier such as CWE-79")
      .optional()
      .describe("Only entries whose weakness list names this CWE (e.g. CWE-79), case-insensitive"),
    ransomware: z
      .enum(["true", "false", "known", "unknown"])
      .optional()
      .transform((v) => (v === undefined ? undefined : v === "true" || v === "known"))
      .describe("true/known: only entries with known ransomware campaign use; false/unknown: only the others"),
    added_since: isoDate.optional().describe("Only entries added on or after this date"),
    added_until: isoDate.optional().describe("Only entries added on or before this date"),
    limit,
    offset,
  })
  // Both days are included, so the same day is a range; one that ends before it starts would charge a unit for an
  // answer that can only be empty (the time ranges' rule, withUntilAfterSince in ../timestamps.ts, for dates).
  .refine((q) => !q.added_since || !q.added_until || q.added_since <= q.added_until, {
    message: "added_until must not be before added_since",
    path: ["added_until"],
  });

export const severity = z.enum(["critical", "high", "moderate", "low", "unknown"]);
const counts = z.object({
  critical: z.number().int(),
  high: z.number().int(),
  moderate: z.number().int(),
  low: z.number().int(),
  unknown: z.number().int(),
});
const summary = z.object({
  total: z.number().int(),
  highest: z.enum(["none", "critical", "high", "moderate", "low", "unknown"]),
  counts,
});

const advisory = z.object({
  id: z.string().describe("OSV id (GHSA-..., PYSEC-..., GO-...), or the registry's advisory id when only npm lists it"),
  aliases: z.array(z.string()).describe("Other ids of the same vulnerability (CVE-...)"),
  title: z.string(),
  severity,
  publishedAt: z.string().nullable().describe("null when only the npm advisory endpoint lists it (it gives no dates)"),
  modifiedAt: z.string().nullable(),
  affectedRanges: z
    .array(z.string())
    .describe(
      'Affected intervals in npm range notation (">=1.0.0 <1.2.3", "<=2.0.0"), "=x" for listed versions, "git ..." for commit ranges',
    ),
  fixedVersions: z.array(z.string()).describe("Versions that fix it, in the ecosystem's order"),
  references: z.array(z.string()),
});

/** A report of a malicious release (an OSV MAL- record), as the package reports show it apart from the advisories. */
const malwareReport = z.object({
  id: z.string().describe("OSV id of the report, e.g. MAL-2025-1234"),
  aliases: z.array(z.string()),
  title: z.string(),
  publishedAt: z.string().nullable(),
  modifiedAt: z.string().nullable(),
  affectedRanges: z.array(z.string()).describe("The versions the report names as malicious"),
  references: z.array(z.string()),
});

export const npmReportOutput = z.object({
  package: z.object({
    name: z.string(),
    ecosystem: z.literal("npm"),
    latestVersion: z.string(),
    description: z.string(),
    license: z.string(),
    repositoryUrl: z.string(),
  }),
  downloads: z.object({ weeklyDownloads: z.number().int(), start: z.string(), end: z.string() }),
  summary,
  advisories: z.array(advisory),
  malware: z
    .object({
      anyVersion: z.boolean().describe("True when any version of the package has a malware report"),
      severity: z.literal("critical").nullable().describe('"critical" whenever there is a report, else null'),
      reports: z.array(malwareReport),
    })
    .describe(
      "Reports of malicious releases (OSV MAL- records, the OpenSSF Malicious Packages feed), kept apart from `advisories` and never counted in `summary`. Withdrawn reports are left out.",
    ),
  sources: z.object({ npm: z.string(), downloads: z.string(), osv: z.string() }),
  checkedAt: z.string(),
  noAdvisoryCopy: z.string(),
});

export const kevMatch = z.object({
  cveId: z.string(),
  vendorProject: z.string(),
  product: z.string(),
  vulnerabilityName: z.string(),
  dateAdded: z.string(),
  dueDate: z.string().nullable(),
  requiredAction: z.string(),
  knownRansomwareCampaignUse: z.string(),
});

const catalogRef = z.object({
  version: z.string().nullable().describe("CISA's catalogVersion of the data in use, e.g. 2025.08.25"),
  releasedAt: z.string().nullable().describe("CISA's dateReleased of that version"),
  partial: z
    .boolean()
    .describe("True only when the data in use is a labelled subset of the catalog; the shipped catalog is complete"),
  origin: z.enum(["shipped", "refreshed"]),
});

const verdict = z.object({
  affected: z
    .boolean()
    .nullable()
    .describe("Whether the selected version is affected; null when the data cannot decide (commit ranges only)"),
  matchedRanges: z.array(z.string()).describe("The affected intervals that contain the selected version"),
  nearestFixedVersion: z
    .string()
    .nullable()
    .describe("Lowest fixed version above the selected one among the matching ranges"),
});

export const supplyChainFinding = z.object({
  kind: z
    .string()
    .describe(
      "typosquat (evidence.typosquat_of names the imitated package; high when the name was shown to be at least 100 times less downloaded, low and unconfirmed with evidence.downloads_compared false when its downloads could not be read; never for a package published by the imitated one's maintainers, or its fork under another scope from the same repository when the registry names no maintainers), install_script, fresh_release (under 72 hours old), new_publisher, yanked, deprecated, unmaintained (no release for two years), repository_missing, repository_mismatch (both judge the scanned version's own repository link, else the package's; mismatch not when the repository's owner is an account that maintains or published the package, as a renamed project's old repository, nor for a monorepo's package whose repository.directory folder is named as the package, as DefinitelyTyped's types/node for @types/node)",
    ),
  severity,
  reason: z.string(),
  evidence: z.record(z.string(), z.unknown()).describe("The registry facts the finding rests on"),
});

export const packageVerdictSchema = z.object({
  score: z.number().describe("0 (nothing found) to 100"),
  level: z.enum(["none", "low", "medium", "high", "critical"]).describe("The score's band"),
  reasons: z.array(z.string()).describe("What moved the score, most weight first"),
});

export const packageReportOutput = z.object({
  package: z.object({
    name: z.string(),
    ecosystem: z.enum(ECOSYSTEMS),
    coordinate: z.string(),
    latestVersion: z.string().nullable(),
    description: z.string().nullable(),
    license: z.string().nullable(),
    repositoryUrl: z.string().nullable(),
    versionCount: z.number().int(),
  }),
  version: z.object({
    selected: z.string(),
    requested: z.string().nullable(),
    isLatest: z.boolean(),
    publishedAt: z.string().nullable(),
    affected: z.boolean().nullable(),
  }),
  malware: z
    .object({
      selectedVersion: z.boolean().describe("True when a malware report covers the selected version"),
      anyVersion: z.boolean().describe("True when any version of the package has a malware report"),
      severity: z.literal("critical").nullable().describe('"critical" whenever there is a report, else null'),
      reports: z.array(
        malwareReport.extend({
          affectsSelectedVersion: z
            .boolean()
            .nullable()
            .describe("Whether the selected version is one of them; null when the data cannot decide"),
        }),
      ),
    })
    .describe(
      "Reports of malicious releases (OSV MAL- records, the OpenSSF Malicious Packages feed). Kept apart from the advisories: never counted in `summary` or `version.affected`. Withdrawn reports are left out.",
    ),
  downloads: z.object({ weeklyDownloads: z.number().int(), start: z.string(), end: z.string() }).nullable(),
  downloadsUnavailableReason: z.string().nullable(),
  findings: z
    .array(supplyChainFinding)
    .describe(
      "Supply-chain findings for the selected version from the registry and the typosquat check (install-time code, a fresh, deprecated or yanked release, an unmaintained package, a new publisher, the repository link), the strongest first",
    ),
  verdict: packageVerdictSchema.describe(
    "The selected version's score from 0 to 100 with what moved it, most weight first: malware, the advisories affecting it (KEV-listed ones weigh as critical), and the findings",
  ),
  summary: summary.extend({ affectingSelectedVersion: summary }),
  advisories: z.array(
    advisory.extend({ sources: z.array(z.string()), versionVerdict: verdict, knownExploited: z.array(kevMatch) }),
  ),
  knownExploited: z.array(kevMatch.extend({ advisoryIds: z.array(z.string()) })),
  knownExploitedCatalog: catalogRef,
  pagination: z.object({
    limit: z.number().int(),
    offset: z.number().int(),
    total: z.number().int(),
    hasMore: z.boolean(),
  }),
  sources: z.object({
    registry: z.string().nullable(),
    downloads: z.string().nullable(),
    osv: z.string().nullable(),
    npmAdvisories: z.string().nullable(),
    kev: z.string().nullable(),
  }),
  sourceStatus: z.array(
    z.object({
      source: z.enum(["registry", "osv", "downloads", "npmAdvisories", "kev"]),
      url: z.string().nullable(),
      status: z.enum(["ok", "not_found", "unavailable", "not_applicable"]),
      fetchedAt: z.string().nullable(),
      cached: z.boolean(),
      reason: z.string().nullable(),
    }),
  ),
  checkedAt: z.string(),
  noAdvisoryCopy: z.string(),
});

const kevEntry = kevMatch.extend({ shortDescription: z.string(), notes: z.string(), cwes: z.array(z.string()) });

const catalogInfo = catalogRef.extend({
  count: z.number().int(),
  note: z.string().nullable(),
  fetchedAt: z.string(),
  sourceUrl: z.string().nullable(),
});

export const cveOutput = z.object({
  cveId: z.string(),
  advisories: z
    .array(
      z.object({
        id: z.string(),
        aliases: z.array(z.string()),
        title: z.string(),
        severity,
        publishedAt: z.string().nullable(),
        modifiedAt: z.string().nullable(),
        withdrawnAt: z.string().nullable(),
        affected: z.array(
          z.object({
            ecosystem: z.string(),
            package: z.string(),
            affectedRanges: z.array(z.string()),
            fixedVersions: z.array(z.string()),
          }),
        ),
        references: z.array(z.string()),
      }),
    )
    .nullable()
    .describe(
      "OSV's record for the CVE and every record aliasing it; null when the advisory source is unavailable (see advisoriesUnavailableReason)",
    ),
  advisoriesUnavailableReason: z
    .string()
    .nullable()
    .describe("Why `advisories` is null (the advisory source could not answer); null when they were fetched"),
  knownExploited: kevEntry.nullable().describe("The CVE's entry in the local known-exploited catalog, or null"),
  knownExploitedCatalog: catalogRef,
  sources: z.object({ osv: z.string(), kev: z.string().nullable() }),
  checkedAt: z.string(),
});

export const kevSearchOutput = z.object({
  catalog: catalogInfo,
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  vulnerabilities: z.array(kevEntry),
  checkedAt: z.string(),
});
