// The scan object of /scans, the list and leaderboard shapes. One schema for finished and running scans: a running
// scan (the 202 answer) has null score, grade and tests.
import { z } from "zod";
import { GRADES, SCAN_TESTS } from "./scoring-table";

export const VISIBILITIES = ["private", "unlisted", "public"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const scanTestSchema = z.object({
  id: z.enum(SCAN_TESTS.map((t) => t.id) as [string, ...string[]]),
  title: z.string(),
  result: z.string().describe("The outcome, one of the scoring table's results for this test"),
  passed: z.boolean().describe("points >= 0"),
  points: z.number().int(),
  counted: z.boolean().describe("false for a bonus that did not count because the score before bonuses was below 90"),
  reason: z.string(),
  fix: z.string().nullable(),
  detail: z.string().nullable().describe("What was seen: the header value, the cookie names, the redirect chain, ..."),
});

export const scanSchema = z.object({
  id: z.string(),
  url: z.string(),
  host: z.string(),
  visibility: z.enum(VISIBILITIES),
  status: z.enum(["running", "done", "failed"]),
  score: z.number().int().nullable(),
  grade: z.enum(GRADES as [string, ...string[]]).nullable(),
  summary: z
    .object({ penalties: z.number().int(), bonuses: z.number().int(), bonuses_applied: z.boolean() })
    .nullable(),
  tests: z.array(scanTestSchema).nullable(),
  final_url: z.string().nullable(),
  redirects: z.array(z.object({ url: z.string(), status: z.number().int().nullable() })).nullable(),
  tls: z
    .object({
      connected: z.boolean(),
      protocol: z.string().nullable(),
      valid: z.boolean(),
      issuer: z.string().nullable(),
      days_left: z.number().int().nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
  domain: z.string().nullable().describe("Registrable domain whose CAA, DNSSEC, SPF and DMARC were checked"),
  error: z.string().nullable().describe("Why a failed scan failed (the site could not be reached)"),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
});
export type ScanView = z.infer<typeof scanSchema>;

export const scanChangeSchema = z.object({
  test: z.string(),
  from: z.string().nullable(),
  to: z.string(),
  points_delta: z.number().int(),
});

export const scanHistorySchema = z.object({
  host: z.string(),
  scans: z.array(
    z.object({
      id: z.string(),
      visibility: z.enum(VISIBILITIES),
      status: z.enum(["running", "done", "failed"]),
      score: z.number().int().nullable(),
      grade: z.string().nullable(),
      created_at: z.string(),
      score_delta: z
        .number()
        .int()
        .nullable()
        .describe("Score change since the previous finished scan of the host; null for the first"),
      changes: z.array(scanChangeSchema).describe("Tests whose result differs from the previous finished scan"),
    }),
  ),
});

export const scannedHostsSchema = z.object({
  hosts: z.array(
    z.object({
      host: z.string(),
      scans: z.number().int().describe("How many scans of the host the workspace has"),
      latest: z
        .object({
          id: z.string(),
          status: z.enum(["running", "done", "failed"]),
          grade: z.string().nullable(),
          score: z.number().int().nullable(),
          visibility: z.enum(VISIBILITIES),
        })
        .describe("The host's most recent scan"),
      scanned_at: z.string().describe("When the most recent scan started"),
    }),
  ),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
});

const leaderboardEntry = z.object({
  host: z.string(),
  scan_id: z.string(),
  grade: z.string(),
  score: z.number().int(),
  scanned_at: z.string(),
  previous_score: z.number().int().nullable(),
  improvement: z.number().int().nullable(),
});
export const leaderboardSchema = z.object({
  window_days: z.number().int(),
  best: z.array(leaderboardEntry),
  most_improved: z.array(leaderboardEntry),
  generated_at: z.string(),
});
export type Leaderboard = z.infer<typeof leaderboardSchema>;
