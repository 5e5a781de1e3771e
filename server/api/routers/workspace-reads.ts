import { z } from "zod";
import { MAX_RANGE_DAYS, resolveRange } from "../../analytics/range";
import { analyticsSummary } from "../../analytics/summary";
import { analyticsTimeseries, DASHBOARD_KEY } from "../../analytics/timeseries";
import { eventsToCsv } from "../../events/csv";
import { searchEvents } from "../../events/events";
import { listLookupHistory } from "../../history/history";
import { historyWindowsList } from "../contract-text";
import { router, workspaceProcedure } from "../trpc";

const historyEntry = z.object({
  id: z.string(),
  requestId: z.string(),
  endpoint: z.string(),
  target: z.string(),
  summary: z.record(z.string(), z.unknown()),
  units: z
    .number()
    .int()
    .nullable()
    .describe("Lookup units the request was charged; null for entries written before costs were kept"),
  status: z
    .number()
    .int()
    .nullable()
    .describe("Status code of the answer (200, 202 or the error's status; a charged lookup can fail upstream)"),
  code: z.string().nullable().describe("The error code of a failed answer, else null"),
  created_at: z.string(),
  expires_at: z.string(),
});

const eventRecord = z.object({
  id: z.string(),
  requestId: z.string(),
  type: z.string(),
  actor: z
    .string()
    .nullable()
    .describe(
      'Who made an account change (audit events): "user:<id>", "api_key:<id>", "operator", "stripe:<event id>" or "system"; null for other events',
    ),
  ip: z.string().nullable(),
  email: z.string().nullable(),
  domain: z.string().nullable(),
  rule: z.string().nullable(),
  data: z.unknown(),
  created_at: z.string(),
});

const eventQuery = z
  .string()
  .trim()
  .max(320)
  .optional()
  .describe("Exact match on request ID, IP, email, domain, rule, event type or actor");
const eventType = z
  .string()
  .trim()
  .max(500)
  .regex(
    /^[A-Za-z0-9_.]+(\s*,\s*[A-Za-z0-9_.]+)*$/,
    "type: comma-separated event types, or prefixes ending in a dot (e.g. audit.)",
  )
  .optional()
  .describe(
    "Comma-separated event types (exact), or prefixes ending in `.` (e.g. `audit.` for the audit trail, `audit.key.` for key changes, `link.` for protected-link activity)",
  );

const since = z.coerce
  .date()
  .optional()
  .describe("Only events created at or after this time (ISO 8601, e.g. `2026-11-01` or `2026-11-01T12:00:00Z`)");
const until = z.coerce.date().optional().describe("Only events created before this time (ISO 8601)");

const TYPE_FILTER =
  "`type` keeps only the listed event types (comma-separated, exact) and those starting with an entry that ends in `.`: `audit.` is the audit trail of account changes (`audit.plan.changed`, `audit.key.created|revoked|paused|resumed`, `audit.member.invited|removed|role_changed`, `audit.webhook.created|updated|deleted`, `audit.rule.created|updated|deleted`, `audit.sender.added|verified|removed`, `audit.report.renamed|deleted`), each with its `actor`, the IP and user agent where there is one, the `target` and the change (`before`, `after`; secrets never) in `data`. Protected-link activity is `link.created`, `link.disabled` and `link.enabled` (with the member or key that changed it) and `link.visit_blocked` (a visit refused because the link was disabled or expired). Events, audit included, are kept for the longer of 90 days and the plan's history window.";

const quality = z.number().min(0).max(1).nullable();
const countMap = <K extends string>(keys: readonly [K, ...K[]]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])) as Record<K, z.ZodNumber>);

const int = (what: string) => z.number().int().describe(what);
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
          .describe(`The API key id, or \`${DASHBOARD_KEY}\` for requests made by members from the dashboard`),
        name: z.string().describe("The key's name (`Dashboard` for the dashboard)"),
        prefix: z.string().nullable().describe("The key's display prefix; null for the dashboard"),
        status: z
          .string()
          .nullable()
          .describe("The key's status now (`active`, `paused`, `revoked`); null for the dashboard"),
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
          .describe(`Units per key id (or \`${DASHBOARD_KEY}\`) that day; names are in \`keys\``),
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

export const workspaceReadsRouter = router({
  events: workspaceProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/events",
        tags: ["Workspace"],
        summary: "Investigation events",
        description: `This workspace's investigation events (assessments, rules, webhooks, protected-link activity, account changes and other security actions), newest first. \`query\` matches exactly on request ID, IP, email, domain, rule, event type or actor. ${TYPE_FILTER} \`since\` and \`until\` bound the creation time. Paginate with \`limit\` (1..100, default 50) and \`cursor\` (the previous page's \`nextCursor\`). Never another workspace's records.`,
      },
    })
    .input(
      z.object({
        query: eventQuery,
        type: eventType,
        since,
        until,
        limit: z.coerce.number().int().min(1).max(100).default(50),
        cursor: z.string().max(64).optional(),
      }),
    )
    .output(z.object({ items: z.array(eventRecord), nextCursor: z.string().nullable() }))
    .query(async ({ ctx, input }) => {
      const page = await searchEvents(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        query: input.query,
        type: input.type,
        since: input.since,
        until: input.until,
        limit: input.limit,
        cursor: input.cursor,
      });
      return {
        items: page.items.map((e) => ({
          id: e.id,
          requestId: e.requestId,
          type: e.type,
          actor: e.actor,
          ip: e.ip,
          email: e.email,
          domain: e.domain,
          rule: e.rule,
          data: e.data,
          created_at: e.createdAt.toISOString(),
        })),
        nextCursor: page.nextCursor,
      };
    }),

  eventsCsv: workspaceProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/events.csv",
        tags: ["Workspace"],
        summary: "Investigation events as CSV",
        description:
          "The same events as GET /events as a CSV file (media type text/csv; columns id, created_at, request_id, type, actor, ip, email, domain, rule, data), newest first, at most 10,000 rows, optionally filtered by `query`, `type`, `since` and `until` (as in GET /events; `type=audit.` exports the audit trail). Cells that a spreadsheet would read as a formula are prefixed with an apostrophe.",
      },
      produces: "text/csv",
    })
    .input(z.object({ query: eventQuery, type: eventType, since, until }))
    .output(z.string())
    .query(async ({ ctx, input }) => {
      const page = await searchEvents(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        query: input.query,
        type: input.type,
        since: input.since,
        until: input.until,
        limit: 10_000,
      });
      ctx.resHeaders.set("Content-Type", "text/csv; charset=utf-8");
      ctx.resHeaders.set("Content-Disposition", 'attachment; filename="events.csv"');
      return eventsToCsv(page.items);
    }),

  analyticsSummary: workspaceProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/analytics/summary",
        tags: ["Workspace"],
        summary: "Analytics summary",
        description:
          "Aggregate counts and trends over the last `days` days (1..365, default 30): endpoint usage (requests and lookup units per endpoint, and per UTC day) from the usage ledger, and, when assessments exist, risk levels, decisions and the top signals. From the assessments of the period and their outcome labels (POST /assess/{request_id}/outcome): per rule (active and shadow) how often it matched, how often its action differed from the decision, and its precision and recall; per risk level its precision and recall; and the signals most common in fraud and in legitimate traffic (`labelled`, `rules`, `riskLevelOutcomes`, `signalsByOutcome`; up to the newest 200,000 assessments). `thisMonth` is the current UTC month's usage per API key and per endpoint, whatever `days` says.",
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
                  key_id: z.string().nullable().describe("The API key's id; null for the dashboard's own requests"),
                  name: z.string(),
                  requests: z.number().int(),
                  units: z.number().int(),
                }),
              )
              .describe("Requests and lookup units per API key this month, most units first"),
            endpoints: z
              .array(z.object({ endpoint: z.string(), requests: z.number().int(), units: z.number().int() }))
              .describe("Requests and lookup units per endpoint this month (a bulk job's refunds net off its units)"),
          })
          .describe("This UTC month's usage per API key and per endpoint: its units add up to X-Service-Quota-Used"),
      }),
    )
    .query(({ ctx, input }) => analyticsSummary(ctx.db, { workspaceId: ctx.principal.workspaceId, days: input.days })),

  analyticsTimeseries: workspaceProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/analytics/timeseries",
        tags: ["Workspace"],
        summary: "Analytics time series",
        description: `Per-UTC-day series for charts, the same numbers the dashboard's analytics page shows: lookup units and requests per endpoint and per API key (from the usage ledger; requests made from the dashboard count under the key \`${DASHBOARD_KEY}\`; refunds lower their day's units), assessments per risk level and per decision, the top signals and matched rules of the period's assessments, failure rates of the work recorded item by item (bulk job items and webhook deliveries), and the error rates of the workspace's own requests: per day and per procedure, the requests answered, those answered with a 4xx and with a 5xx, and the range's most frequent error statuses (\`responses\`, counted per whole UTC day; requests with no or a bad key are not counted). The range is either the last \`days\` UTC days, today included (1..${MAX_RANGE_DAYS}, default 30), or \`since\` (inclusive) to \`until\` (exclusive, default now; \`since\` defaults to 30 UTC days before \`until\`); giving both forms, an \`until\` not after \`since\`, or a range over ${MAX_RANGE_DAYS} days is 400 INVALID_REQUEST. Every day of the range is listed, with zeros on quiet days. Never another workspace's records.`,
      },
    })
    .input(
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
        since: z.coerce.date().optional().describe("Start of the range, inclusive (ISO 8601, e.g. `2026-11-01`)"),
        until: z.coerce.date().optional().describe("End of the range, exclusive (ISO 8601; default now)"),
      }),
    )
    .output(analyticsTimeseriesOutput)
    .query(({ ctx, input }) =>
      analyticsTimeseries(ctx.db, { workspaceId: ctx.principal.workspaceId, range: resolveRange(input) }),
    ),

  lookupHistory: workspaceProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/lookups/history",
        tags: ["Workspace"],
        summary: "Lookup history",
        description: `Safe summaries of this workspace's recent charged requests (never the raw payload), newest first: every request that was charged units is an entry with its \`units\` and outcome (\`status\`, and \`code\` when it failed), failed lookups, report saves and bulk job items included, so a month's entries add up to \`X-Service-Quota-Used\`. Each entry has \`created_at\` and the \`expires_at\` captured from the plan's history window at lookup time (${historyWindowsList()}). Filter with \`endpoint\` (an endpoint name such as \`ip.lookup\`, or a family such as \`ip\` for every IP lookup), \`since\` and \`until\`. Paginate with \`limit\` (1..100, default 50) and the \`nextCursor\` of the previous page as \`cursor\`.`,
      },
    })
    .input(
      z.object({
        limit: z.coerce.number().int().min(1).max(100).default(50),
        cursor: z.string().max(64).optional(),
        endpoint: z
          .string()
          .trim()
          .max(64)
          .regex(/^[a-z][a-z0-9.-]*$/, "must be an endpoint name such as ip.lookup, or a family such as ip")
          .optional()
          .describe("Only lookups of this endpoint (`ip.lookup`) or family (`ip`)"),
        since: z.coerce.date().optional().describe("Only lookups at or after this time (ISO 8601)"),
        until: z.coerce.date().optional().describe("Only lookups before this time (ISO 8601)"),
      }),
    )
    .output(
      z.object({ historyDays: z.number().int(), items: z.array(historyEntry), nextCursor: z.string().nullable() }),
    )
    .query(async ({ ctx, input }) => {
      const { historyDays } = ctx.principal.entitlements;
      if (historyDays === 0) return { historyDays, items: [], nextCursor: null };
      const page = await listLookupHistory(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        limit: input.limit,
        cursor: input.cursor ?? null,
        endpoint: input.endpoint,
        since: input.since,
        until: input.until,
      });
      return { historyDays, ...page };
    }),
});
