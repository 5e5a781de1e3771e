// GET /analytics/timeseries: analytics time series.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { timestampSchema, withUntilAfterSince } from "../../../timestamps";
import { MAX_RANGE_DAYS, resolveRange } from "../../../analytics/range";
import { SCHEDULED_KEY } from "../../../analytics/payers";
import { analyticsTimeseries, DASHBOARD_KEY } from "../../../analytics/timeseries";
import { workspaceProcedure } from "../../trpc";
import { since, until, countMap, int } from "./shared";

const failures = {
  bulkItems: int("Bulk job items that finished (succeeded or failed)"),
  bulkItemsFailed: int("Bulk job items that failed (their upstream failed; their units count)"),
  webhookDeliveries: int("Webhook deliveries that ended (delivered, or failed after their retries)"),
  webhookDeliveriesFailed: int("Webhook deliveries that failed after their retries"),
  rate: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe(
      "(bulkItemsFailed + webhookDeliveriesFailed) / (bulkItems + webhookDeliveries), to 4 decimals; null when nothing finished",
    ),
};

const answered = {
  requests: int(
    "Requests answered (successes and refusals alike): every authenticated request, metered or not, through the API or the dashboard",
  ),
  clientErrors: int(
    "Of those, requests answered with a 4xx status (bad input, out of units, not allowed by the plan, not found, conflict, rate limited)",
  ),
  serverErrors: int("Of those, requests answered with a 5xx status (internal error, upstream unavailable)"),
  clientErrorRate: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe("clientErrors / requests, to 4 decimals; null when there were no requests"),
  serverErrorRate: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe("serverErrors / requests, to 4 decimals; null when there were no requests"),
};

const responsesOutput = z
  .object({
    totals: z.object(answered).describe("Sums over the whole range"),
    endpoints: z
      .array(
        z.object({
          endpoint: z
            .string()
            .describe(
              "The procedure's name, e.g. `email.emailCheck` or `workspace.analyticsTimeseries` (its OpenAPI operationId, with `.` for `-`)",
            ),
          ...answered,
        }),
      )
      .describe("Every procedure called in the range, most errors (4xx + 5xx) first, then most requests"),
    topErrors: z
      .array(
        z.object({
          status: int("HTTP status of the answers, 400..599"),
          code: z
            .string()
            .nullable()
            .describe(
              "The error code of the answers (e.g. `QUOTA_EXCEEDED`) when it was recorded; null when only the status is known",
            ),
          requests: int("Requests answered with this status (and code) in the range"),
        }),
      )
      .describe("The ten most frequent error statuses of the range, most requests first"),
  })
  .describe(
    "What this workspace's authenticated requests were answered in the range (API keys and the dashboard alike), counted per whole UTC day: a range starting or ending inside a day counts that whole day. Requests refused before the caller is known (no key, a bad key) belong to no workspace and are not counted; bulk job items are not requests (see `errors`)",
  );

const analyticsTimeseriesOutput = z.object({
  since: z.string().describe("Start of the range, inclusive (ISO 8601); for `days`, the start of the oldest UTC day"),
  until: z.string().describe("End of the range, exclusive (ISO 8601)"),
  totals: z
    .object({
      requests: int("Metered requests admitted in the range"),
      units: int("Lookup units used in the range, net of refunds"),
      assessments: int("Assessments (POST /assess) in the range"),
      ...failures,
    })
    .describe("Sums over the whole range"),
  endpoints: z
    .array(
      z.object({
        endpoint: z.string().describe("Endpoint name as in the ledger, e.g. `ip.geo`"),
        requests: int("Admitted requests"),
        units: int("Units, net of refunds"),
      }),
    )
    .describe("Endpoints used in the range, most units first"),
  keys: z
    .array(
      z.object({
        key: z
          .string()
          .describe(
            `The API key id, \`${DASHBOARD_KEY}\` for requests made by members from the dashboard, or \`${SCHEDULED_KEY}\` for monitor runs the schedule started`,
          ),
        name: z
          .string()
          .describe("The key's name (`Dashboard` for the dashboard, `Scheduled monitor runs` for the schedule)"),
        prefix: z.string().nullable().describe("The key's display prefix; null for the dashboard and the schedule"),
        status: z
          .string()
          .nullable()
          .describe("The key's status now (`active`, `paused`, `revoked`); null for the dashboard and the schedule"),
        requests: int("Admitted requests"),
        units: int("Units, net of refunds"),
      }),
    )
    .describe("Keys (and the dashboard) that used units in the range, most units first"),
  daily: z
    .array(
      z.object({
        date: z.string().describe("The UTC day, `YYYY-MM-DD`"),
        requests: int("Metered requests admitted that day"),
        units: int("Lookup units used that day, net of refunds"),
        unitsByEndpoint: z
          .record(z.string(), z.number().int())
          .describe("Units per endpoint name that day (endpoints without use are left out)"),
        unitsByKey: z
          .record(z.string(), z.number().int())
          .describe(`Units per key id (or \`${DASHBOARD_KEY}\`, \`${SCHEDULED_KEY}\`) that day; names are in \`keys\``),
        assessments: int("Assessments that day"),
        riskLevels: countMap(["low", "medium", "high", "critical"]).describe("Assessments that day per risk level"),
        decisions: countMap(["allow", "review", "challenge", "block"]).describe("Assessments that day per decision"),
        errors: z
          .object(failures)
          .describe(
            "Failures that day of the work recorded item by item (bulk job items by the day they finished, webhook deliveries by the day they were created)",
          ),
        responses: z
          .object(answered)
          .describe(
            "Requests this workspace made that day (API keys and dashboard) and how many were answered with a 4xx or a 5xx; see the top-level `responses`",
          ),
      }),
    )
    .describe("Every UTC day of the range, oldest first, zeros included"),
  topSignals: z
    .array(
      z.object({
        signal: z.string().describe("Signal code"),
        count: int("Assessments in the range that carried the signal"),
      }),
    )
    .describe("The ten signals found in most of the range's assessments"),
  topRules: z
    .array(
      z.object({
        id: z.string().describe("Rule id"),
        name: z.string().nullable().describe("The rule's name; null when the rule has since been deleted"),
        mode: z.enum(["active", "shadow"]).nullable().describe("The rule's mode now; null when deleted"),
        matched: int("Assessments in the range it matched as an active rule"),
        shadowMatched: int("Assessments in the range it matched in shadow mode (recorded, never deciding)"),
      }),
    )
    .describe("The ten rules with the most matches (active and shadow together) in the range"),
  responses: responsesOutput,
});

export const analyticsTimeseriesProcedure = workspaceProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/analytics/timeseries",
      tags: ["Workspace"],
      summary: "Analytics time series",
      description: `Per-UTC-day series for charts, the same numbers the dashboard's analytics page shows: lookup units and requests per endpoint and per API key (from the usage ledger; requests made from the dashboard count under the key \`${DASHBOARD_KEY}\`, monitor runs the schedule started (nobody's request) under \`${SCHEDULED_KEY}\`; refunds lower their day's units), assessments per risk level and per decision, the top signals and matched rules of the period's assessments, failure rates of the work recorded item by item (bulk job items and webhook deliveries), and the error rates of the workspace's own requests: per day and per procedure, the requests answered, those answered with a 4xx and with a 5xx, and the range's most frequent error statuses (\`responses\`, counted per whole UTC day; requests with no or a bad key are not counted). The range is either the last \`days\` UTC days, today included (1..${MAX_RANGE_DAYS}, default 30), or \`since\` (inclusive) to \`until\` (exclusive, default now; \`since\` defaults to 30 UTC days before \`until\`); giving both forms, an \`until\` not after \`since\`, or a range over ${MAX_RANGE_DAYS} days is 400 INVALID_REQUEST. Every day of the range is listed, with zeros on quiet days. Never another workspace's records.`,
    },
  })
  .input(
    withUntilAfterSince(
      z.object({
        days: z.coerce
          .number()
          .int()
          .min(1)
          .max(MAX_RANGE_DAYS)
          .optional()
          .describe(
            `The last N UTC days, today included (1..${MAX_RANGE_DAYS}; default 30). Not together with since/until.`,
          ),
        since: timestampSchema.optional().describe("Start of the range, inclusive (ISO 8601, e.g. `2026-11-01`)"),
        until: timestampSchema.optional().describe("End of the range, exclusive (ISO 8601; default now)"),
      }),
    ),
  )
  .output(analyticsTimeseriesOutput)
  .query(({ ctx, input }) =>
    analyticsTimeseries(ctx.db, { workspaceId: ctx.principal.workspaceId, range: resolveRange(input) }),
  );
