// GET /events: investigation events.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { searchEvents } from "../../../events/events";
import { withUntilAfterSince } from "../../../timestamps";
import { workspaceProcedure } from "../../trpc";
import { nextPageFields, requestIdFields, withNextPage } from "../snake-twins";
import { EVENT_QUERY_DOC, eventQuery, eventSearchTerms, eventType, since, until, int } from "./shared";

const eventRecord = z.object({
  id: z.string(),
  ...requestIdFields,
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

const TYPE_FILTER =
  "`type` keeps only the listed event types (comma-separated, exact) and those starting with an entry that ends in `.`: `audit.` is the audit trail of account changes (`audit.plan.changed`, `audit.key.created|revoked|paused|resumed`, `audit.member.invited|removed|role_changed`, `audit.webhook.created|updated|deleted`, `audit.rule.created|updated|deleted`, `audit.sender.added|verified|removed`, `audit.weights.mode_changed`, `audit.list.created|updated|deleted|items_added|item_removed`, `audit.case.resolved`, `audit.report.renamed|deleted`, `audit.monitor.created|updated|deleted|paused|resumed|unsubscribed`, `audit.project.deleted`), each with its `actor`, the IP and user agent where there is one, the `target` and the change (`before`, `after`; secrets never) in `data`. Protected-link activity is `link.created`, `link.disabled` and `link.enabled` (with the member or key that changed it) and `link.visit_blocked` (a visit refused because the link was disabled or expired). Monitors' alerts are `monitor.alert`, `monitor.resolved` and `monitor.skipped` (`monitor.` takes all three), with the monitor, check, severity, `before`, `after` (`{ check_failing: true, reason, code, since, failed_runs }` for a check that could not run several times in a row) and the dashboard link in `data` and the run's id as the request id. An entry that is neither a type the service writes nor a prefix of one (a misspelling, `audit` without its dot) is 400 INVALID_REQUEST naming the accepted types. Events, audit included, are kept for the longer of 90 days and the plan's history window.";

export const eventsProcedure = workspaceProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/events",
      tags: ["Workspace"],
      summary: "Investigation events",
      description: `This workspace's investigation events (assessments, rules, webhooks, protected-link activity, account changes and other security actions), newest first. ${EVENT_QUERY_DOC} ${TYPE_FILTER} \`since\` (inclusive) and \`until\` (exclusive) bound the creation time; an \`until\` not after \`since\` is 400 INVALID_REQUEST. Paginate with \`limit\` (1..100, default 50) and \`cursor\` (the previous page's \`next_cursor\`; one that names none of this workspace's events, such as one purged since, is 400 INVALID_REQUEST). Never another workspace's records.`,
    },
  })
  .input(
    withUntilAfterSince(
      z.object({
        query: eventQuery,
        type: eventType,
        since,
        until,
        limit: z.coerce.number().int().min(1).max(100).default(50),
        cursor: z.string().max(64).optional(),
      }),
    ),
  )
  .output(z.object({ items: z.array(eventRecord), ...nextPageFields }))
  .query(async ({ ctx, input }) => {
    const page = await searchEvents(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      ...(await eventSearchTerms(ctx.db, ctx.principal.workspaceId, input.query)),
      type: input.type,
      since: input.since,
      until: input.until,
      limit: input.limit,
      cursor: input.cursor,
    });
    return withNextPage({
      items: page.items.map((e) => ({
        id: e.id,
        request_id: e.requestId,
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
    });
  });
