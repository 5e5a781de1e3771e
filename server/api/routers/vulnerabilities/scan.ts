// POST /vulnerabilities/scan: a whole lockfile or SBOM in one call, every distinct package version judged.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { LOCKFILE_FORMATS } from "../../../vulnerabilities/lockfiles/types";
import { scanToCsv } from "../../../vulnerabilities/lockfile-scan/csv";
import {
  forgetLockfile,
  listsSeveralPackages,
  MAX_SCAN_BYTES,
  MAX_SCAN_PACKAGES,
  readLockfileOnce,
} from "../../../vulnerabilities/lockfile-scan/read";
import { scanToSarif } from "../../../vulnerabilities/lockfile-scan/sarif";
import { scanLockfileOrThrow } from "../../../vulnerabilities/lockfile-scan/scan";
import { scanInputShape, type ScanReport } from "../../../vulnerabilities/lockfile-scan/schemas";
import { FAIL_ON } from "../../../../clients/cli/src/policy-rule";
import { DEFAULT_REF, PROJECT_NAME_RULE, projectNameSchema, refSchema } from "../../../projects/names";
import { projectScanAnswer } from "../../../projects/schemas";
import { recordProjectScan } from "../../../projects/store";
import { meteredProcedure } from "../../trpc";
import { SEVERITY_RULE } from "./shared";
import { preferredScanMediaType } from "./scan-media";

const scanInput = z
  .object({
    ...scanInputShape,
    path: z
      .string()
      .trim()
      .max(500)
      .refine((p) => !/^[\\/]|^[A-Za-z]:/.test(p) && !p.split(/[\\/]/).some((part) => part === "." || part === ".."), {
        message:
          "path must be the file's path from the repository root (relative, without . or .. parts), such as docs/package-lock.json",
      })
      .optional()
      .describe(
        "The file's path from the repository root, for SARIF locations (default: the format's usual file name); relative, without . or .. parts",
      ),
    project: projectNameSchema
      .optional()
      .describe("Keep the answer in this project's scan history and answer its `diff` (e.g. acme/web)"),
    ref: refSchema
      .optional()
      .describe(`With \`project\`: the branch or commit label the scan is filed under (default \`${DEFAULT_REF}\`)`),
    base_ref: refSchema
      .optional()
      .describe(`With \`project\`: the ref whose latest scan the diff is taken against (default \`${DEFAULT_REF}\`)`),
    fail_on_new: z
      .enum(FAIL_ON)
      .optional()
      .describe(
        "With `project`: judge the findings this scan adds (`diff.new`) by this policy (service-scan's --fail-on-new); a scan that fails it is never a later scan's base",
      ),
  })
  .superRefine((v, ctx) => {
    for (const field of ["ref", "base_ref", "fail_on_new"] as const)
      if (v[field] !== undefined && v.project === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: `${field} needs \`project\`` });
    const read = readLockfileOnce(v.lockfile, v.format);
    if (!read.ok) ctx.addIssue({ code: "custom", message: read.problem });
  });

type ScanInput = z.output<typeof scanInput>;

// The answer's summary by request input, for the history entry written after the answer (SARIF and CSV answers are
// strings, and the lockfile's parse is gone by then).
const answered = new WeakMap<ScanInput, Pick<ScanReport, "format" | "summary" | "skipped"> & { subject?: string }>();
// What the file is, known before the scan runs: a scan that is not answered (503, its units given back) is still named
// in history by its project and ref, or by what its SBOM describes (a project monitor's run), as an answered one is.
const described = new WeakMap<ScanInput, { format: string; subject?: string }>();

/** "project acme/web@pr-7, " or "of acme/web@default, " (an SBOM's subject), or "" for a plain file. */
const filedAs = (input: ScanInput, subject: string | undefined) =>
  input.project ? `project ${input.project}@${input.ref ?? DEFAULT_REF}, ` : subject ? `of ${subject}, ` : "";

const lockfileOf = (input: ScanInput) => {
  const read = readLockfileOnce(input.lockfile, input.format);
  if (!read.ok) throw new Error("a scan's input was validated before its lockfile was read");
  return read.lockfile;
};

const SCAN_DESCRIPTION = [
  `Scans a lockfile or SBOM sent as the raw request body (any Content-Type: text/plain, application/json, application/octet-stream, application/x-yaml...; at most ${MAX_SCAN_BYTES.toLocaleString("en-US")} bytes): package-lock.json (v1 to v3), npm-shrinkwrap.json, yarn.lock (v1 and berry), pnpm-lock.yaml, requirements.txt (pinned), poetry.lock, Pipfile.lock, composer.lock, go.sum, go.mod, and CycloneDX or SPDX JSON (components with purls). The format is recognised from the content; the query parameter \`format\` (${LOCKFILE_FORMATS.join(", ")}) overrides it, and \`path\` names the file for SARIF locations.`,
  `Cost: one unit per distinct package version (the same version listed twice is one), reserved at once before any upstream call. More than one package needs bulk lookups (403 BULK_LOOKUPS_REQUIRED otherwise, nothing consumed); a file of one package is allowed on every plan. Dependencies that name no registry version (git, file, link, workspace, unpinned) are listed in \`skipped\` with the reason and cost nothing. 400 INVALID_REQUEST, nothing consumed, for a file that cannot be read (the message names the line), an empty body, no package found (with the skipped reasons) or more than ${MAX_SCAN_PACKAGES.toLocaleString("en-US")} package versions.`,
  "Body: `format`; `packages` [{ecosystem, name, version, line, dev, verdict {score, level, reasons}, malware, malwareReports [{id, aliases, summary, publishedAt, modifiedAt, affectedRanges}], advisories [{id, aliases, summary, severity, affected, fixedVersions, nearestFixedVersion, kev, epss {cve, epss, percentile, date} or null, epssReason}], kev (CISA KEV entries with advisoryIds), findings [{kind, severity, reason, evidence}], fixedIn, registry {status, reason, fetchedAt}}], malware first, then by verdict score, then name; `skipped` [{name, spec, reason, line}]; `summary` {packages, vulnerable, malware, bySeverity, byFinding, upgrades [{ecosystem, name, from, to, malware, fixes, maxSeverity, maxEpss, kev}] malware first, then known-exploited, then severity, then EPSS}; `sources` [{source, url, status, fetchedAt, cached, reason}]; `checkedAt`; `noAdvisoryCopy`.",
  "Advisories come from OSV's batch query for each exact version (one call per 1,000 versions; records fetched in parallel and cached). Reports of malicious releases (OSV MAL- records, the OpenSSF Malicious Packages feed) set `malware: true` with severity critical and are never counted as vulnerable; withdrawn records are left out. `fixedIn` is the smallest named fixed version that no affecting advisory's ranges include. EPSS scores (FIRST) stand beside each CVE when SERVICE_EPSS_URL names a source, else null with `epssReason`. Supply-chain findings come from one registry document per package (install scripts, fresh, deprecated or yanked releases, unmaintained packages, new publishers, repository links) and the typosquat check of the name. " +
    SEVERITY_RULE,
  `Projects: with the query parameter \`project\` (${PROJECT_NAME_RULE}; another name is 400 INVALID_REQUEST, nothing consumed), the answer (the one paid for, no further unit) is kept for the workspace's lookup history window (at least a day) with the lockfile's package list, filed under \`ref\` (a branch or commit label, default \`${DEFAULT_REF}\`), and gains \`diff\`: \`base\` {scan_id, ref, created_at} (the project's latest scan of the \`${DEFAULT_REF}\` ref, or of \`base_ref\`, of the same \`path\` when that ref has one, so several lockfiles of a repository can share a project, passing over a scan that failed its \`fail_on_new\` policy; null when there is none), \`new\` and \`fixed\` (findings [{ecosystem, name, version, kind, id, severity, summary, fixed_version}]: malware reports, advisories and supply-chain findings; one is the same in both scans when its package, kind and id are, whatever the version; the supply-chain findings of a package whose registry was unavailable to either scan are neither new nor fixed, since one scan could not compute them) and \`unchanged\` (a count, those included), and \`project\` {name, ref, scan_id, expires_at}. With \`fail_on_new\` (high, critical or malware: service-scan's --fail-on-new), the findings the scan adds are judged by that policy (malware fails every policy, advisories at or above the severity) and \`project.policy\` {fail_on_new, passed, breaches} is the verdict; a scan that failed it is never a later scan's base (its new findings were refused, not accepted): the next scan is compared with the base that one had, so re-running a failed job fails again. Read the history with GET /projects/{name}/scans (the name's slashes written %2F). \`ref\`, \`base_ref\` or \`fail_on_new\` without \`project\` is 400 INVALID_REQUEST, nothing consumed. SARIF and CSV answers are the scan's alone; the stored JSON answer has the diff.`,
  "`Accept: application/sarif+json` answers a SARIF 2.1.0 log (one rule per advisory, malware report and finding kind; one result per package and each of them, located at the package's line; the run's `properties.summary` is the JSON answer's `summary`, for a policy without a second call); `Accept: text/csv` answers one row per package and advisory, malware report or finding (columns ecosystem, name, version, line, dev, kind, id, severity, summary, fixed_in, upgrade_to, kev, epss, epss_percentile, verdict_score, verdict_level; kind `none` for a clean package). 503 UPSTREAM_UNAVAILABLE when OSV cannot answer (all the units are given back, so a retry is safe); a registry that fails costs only that package's findings (`registry.status: unavailable` with the reason).",
].join("\n\n");

export const scanProcedure = meteredProcedure({
  capability: "vulnerabilities",
  endpoint: "vulnerabilities.scan",
  input: scanInput,
  needsBulk: listsSeveralPackages,
  bulkWords: { needs: "scan a file of more than one package", instead: "scan a file of one package" },
  // What history says of a scan that was not answered (a 503 whose units were given back).
  target: (input) => {
    const file = described.get(input);
    return `lockfile (${filedAs(input, file?.subject)}${file?.format ?? input.format ?? "detected format"})`;
  },
  history: (input) => {
    const out = answered.get(input);
    if (!out)
      return { target: `lockfile (${filedAs(input, undefined)}${input.format ?? "detected format"})`, summary: {} };
    // A project's scan names the project and ref it is filed under, as its history page does; an SBOM names what it
    // describes (a project monitor's rescan sends the project's list as one: server/monitors/checks/project.ts).
    const filed = filedAs(input, out.subject);
    return {
      target: `lockfile (${filed}${out.format}, ${out.summary.packages} packages)`,
      summary: {
        packages: out.summary.packages,
        vulnerable: out.summary.vulnerable,
        malware: out.summary.malware,
        ...out.summary.bySeverity,
        skipped: out.skipped.length,
      },
    };
  },
})
  .meta({
    rawBody: { field: "lockfile", maxBytes: MAX_SCAN_BYTES },
    freeText: ["lockfile"],
    alsoProduces: ["application/sarif+json", "text/csv"],
    openapi: {
      method: "POST",
      path: "/vulnerabilities/scan",
      tags: ["Vulnerabilities"],
      summary: "Scan a lockfile or SBOM",
      description: SCAN_DESCRIPTION,
    },
  })
  .output(z.union([projectScanAnswer, z.string()]))
  .mutation(async ({ ctx, input }) => {
    try {
      const lockfile = lockfileOf(input);
      described.set(input, { format: lockfile.format, subject: lockfile.subject });
      const report = await scanLockfileOrThrow(lockfile);
      answered.set(input, { ...report, subject: lockfile.subject });
      const kept = input.project
        ? await recordProjectScan(ctx.db, {
            workspaceId: ctx.principal.workspaceId,
            project: input.project,
            ref: input.ref ?? DEFAULT_REF,
            baseRef: input.base_ref,
            historyDays: ctx.principal.entitlements.historyDays,
            report,
            path: input.path,
            failOnNew: input.fail_on_new,
          })
        : null;
      const media = preferredScanMediaType(ctx.requestHeaders.get("accept"));
      if (media === "application/json") return kept ?? report;
      ctx.resHeaders.set("Content-Type", `${media}; charset=utf-8`);
      if (media === "text/csv") {
        ctx.resHeaders.set("Content-Disposition", 'attachment; filename="scan.csv"');
        return scanToCsv(report);
      }
      return scanToSarif(report, input.path);
    } finally {
      forgetLockfile(input.lockfile);
    }
  });
