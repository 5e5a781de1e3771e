// The wire shapes of projects and their scans (/v1/projects..., and the scan answer's `diff`), snake_case, shared by
// the REST API, the dashboard and the docs.
import { z } from "zod";
import { scanOutput } from "../vulnerabilities/lockfile-scan/schemas";
import { FAIL_ON } from "../../clients/cli/src/policy-rule";
import { findingSchema } from "./findings";

export const scanBaseSchema = z
  .object({
    scan_id: z.string(),
    ref: z.string(),
    created_at: z.string(),
  })
  .nullable()
  .describe(
    "The scan compared with: the project's latest scan of its default ref (or of base_ref), of the same path when that ref has one, passing over one that failed its `fail_on_new` policy for the scan that one was compared with; null for none",
  );

export const diffSchema = z
  .object({
    base: scanBaseSchema,
    new: z.array(findingSchema).describe("Findings this scan has and the base did not (all of them without a base)"),
    fixed: z.array(findingSchema).describe("Findings the base had and this scan no longer has, as the base had them"),
    unchanged: z
      .number()
      .int()
      .describe(
        "Findings both have, and the supply-chain findings that one of the two could not compute (their package's `registry.status` was `unavailable` there), carried as unchanged",
      ),
  })
  .describe(
    "With `project`: what changed since the base. A finding is the same when its package (ecosystem, name), kind and id are, whatever the version. A package whose registry was unavailable to either scan has its supply-chain findings neither new nor fixed (unknown there, counted in `unchanged`); its malware reports and advisories count as usual",
  );

export const scanPolicySchema = z
  .object({
    fail_on_new: z.enum(FAIL_ON).describe("The policy the scan's new findings were judged by"),
    passed: z.boolean(),
    breaches: z.array(z.string()).describe("What failed it, in words (`1 new malware package`); empty when it passed"),
  })
  .describe(
    "With `fail_on_new`: the verdict on the findings the scan added. A scan that failed it is never a later scan's base: its new findings were refused, so a re-run is compared with the same base and fails again",
  );
export type ScanPolicy = z.infer<typeof scanPolicySchema>;

export const projectScanRefSchema = z
  .object({
    name: z.string(),
    ref: z.string(),
    scan_id: z.string(),
    expires_at: z.string().describe("When the stored scan is deleted (the workspace's history window)"),
    policy: scanPolicySchema.optional(),
  })
  .describe("With `project`: where the answer is kept (GET /projects/{name}/scans/{scan_id})");

/** The scan's answer with a project: the stored answer is the same, read back. */
export const projectScanAnswer = scanOutput.extend({
  diff: diffSchema.optional(),
  project: projectScanRefSchema.optional(),
});
export type ProjectScanAnswer = z.infer<typeof projectScanAnswer>;

export const scanCountsSchema = z.object({
  packages: z.number().int(),
  vulnerable: z.number().int(),
  malware: z.number().int(),
  findings: z.number().int(),
  new: z.number().int(),
  fixed: z.number().int(),
  unchanged: z.number().int(),
});
export type ScanCounts = z.infer<typeof scanCountsSchema>;

export const projectScanSummarySchema = z.object({
  id: z.string(),
  project: z.string(),
  ref: z.string(),
  format: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  base: scanBaseSchema,
  policy: scanPolicySchema
    .nullable()
    .describe("The verdict on its new findings when it was sent with `fail_on_new`, else null"),
  summary: scanCountsSchema,
});
export type ProjectScanSummary = z.infer<typeof projectScanSummarySchema>;

export const projectListItemSchema = z.object({
  name: z.string(),
  scans: z.number().int().describe("Stored scans of all refs"),
  latest_scan: projectScanSummarySchema,
});

export const projectSchema = z.object({
  name: z.string(),
  scans: z.number().int(),
  refs: z
    .array(z.object({ ref: z.string(), scans: z.number().int(), latest_scan: projectScanSummarySchema }))
    .describe("Each ref with its latest scan, the default ref first, then the most recently scanned"),
  open_findings: z
    .array(findingSchema)
    .describe("The findings of the latest scan of the default ref (of the latest scan when the default has none)"),
  monitor: z
    .object({ id: z.string(), interval: z.string(), status: z.string() })
    .nullable()
    .describe('The monitor watching the project (checks ["project"]), if any'),
});
export type ProjectView = z.infer<typeof projectSchema>;
