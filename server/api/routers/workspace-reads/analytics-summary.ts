// GET /analytics/summary: analytics summary.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { analyticsSummary } from "../../../analytics/summary";
import { workspaceProcedure } from "../../trpc";
import { countMap, int } from "./shared";

const quality = z.number().min(0).max(1).nullable();

export const analyticsSummaryProcedure = workspaceProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/analytics/summary",
      tags: ["Workspace"],
      summary: "Analytics summary",
      description:
        "Aggregate counts and trends over the last `days` days (1..365, default 30): endpoint usage (requests and lookup units per endpoint, and per UTC day) from the usage ledger, refunds deducted from the endpoint they give back (a cancelled or unanswered bulk job's items from `bulk.job`, a monitor run's unanswered checks from `monitor.run`, a lookup's from its own), and, when assessments exist, risk levels, decisions and the top signals. From the assessments of the period and their outcome labels (POST /assess/{request_id}/outcome): per rule (active and shadow) how often it matched, how often its action differed from the decision, and its precision and recall; per risk level its precision and recall; and the signals most common in fraud and in legitimate traffic (`labelled`, `rules`, `riskLevelOutcomes`, `signalsByOutcome`; up to the newest 200,000 assessments). `thisMonth` is the current UTC month's usage per API key and per endpoint, whatever `days` says.",
    },
  })
  .input(z.object({ days: z.coerce.number().int().min(1).max(365).default(30) }))
  .output(
    z.object({
      from: z.string(),
      to: z.string(),
      endpoints: z.array(z.object({ endpoint: z.string(), requests: z.number().int(), units: z.number().int() })),
      daily: z.array(z.object({ date: z.string(), requests: z.number().int(), units: z.number().int() })),
      riskLevels: countMap(["low", "medium", "high", "critical"]),
      decisions: countMap(["allow", "review", "challenge", "block"]),
      topSignals: z.array(z.object({ signal: z.string(), count: z.number().int() })),
      events: z.number().int(),
      labelled: z
        .object({ fraud: z.number().int(), legitimate: z.number().int() })
        .describe("Assessments of the period with an outcome label (every label but `legitimate` counts as fraud)"),
      rules: z
        .array(
          z.object({
            id: z.string(),
            name: z.string(),
            mode: z.enum(["active", "shadow"]),
            action: z.string(),
            matched: z.number().int().describe("Assessments of the period the rule matched"),
            differed: z
              .number()
              .int()
              .describe(
                "Matches where its action differs from the recorded decision (for a shadow rule: the decisions it would have changed, or an earlier rule decided)",
              ),
            labelledFraud: z.number().int(),
            labelledLegitimate: z.number().int(),
            precision: quality.describe(
              "labelledFraud / (labelledFraud + labelledLegitimate); null without labelled matches",
            ),
            recall: quality.describe("labelledFraud / labelled.fraud; null without labelled fraud"),
          }),
        )
        .describe("Every rule of the workspace (active and shadow) in evaluation order, measured over the period"),
      riskLevelOutcomes: z
        .array(
          z.object({
            level: z.enum(["low", "medium", "high", "critical"]),
            assessments: z.number().int(),
            labelledFraud: z.number().int(),
            labelledLegitimate: z.number().int(),
            precision: quality.describe("Share of the level's labelled assessments labelled fraud"),
            recall: quality.describe("Share of all labelled fraud that scored at this level"),
          }),
        )
        .describe("Per risk level, how its labelled assessments turned out"),
      signalsByOutcome: z
        .object({
          fraud: z.array(z.object({ signal: z.string(), count: z.number().int(), share: z.number() })),
          legitimate: z.array(z.object({ signal: z.string(), count: z.number().int(), share: z.number() })),
        })
        .describe(
          "The ten signals most common among assessments labelled fraud and among those labelled legitimate, with the share of that class they appear in",
        ),
      thisMonth: z
        .object({
          period_start: z.string().describe("Start of the current UTC month, which the counts cover"),
          keys: z
            .array(
              z.object({
                key_id: z
                  .string()
                  .nullable()
                  .describe(
                    "The API key's id; null for the dashboard's own requests, `scheduled` for monitor runs the schedule started (named \"Scheduled monitor runs\")",
                  ),
                name: z.string(),
                requests: z.number().int(),
                units: z.number().int(),
              }),
            )
            .describe("Requests and lookup units per API key this month, most units first"),
          endpoints: z
            .array(z.object({ endpoint: z.string(), requests: z.number().int(), units: z.number().int() }))
            .describe(
              "Requests and lookup units per endpoint this month (refunds net off the units of the endpoint they give back)",
            ),
        })
        .describe("This UTC month's usage per API key and per endpoint: its units add up to X-Service-Quota-Used"),
    }),
  )
  .query(({ ctx, input }) => analyticsSummary(ctx.db, { workspaceId: ctx.principal.workspaceId, days: input.days }));
