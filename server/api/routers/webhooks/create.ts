// POST /webhooks: create a webhook.
// The procedure, with its contract (meta, input, output) beside its work.
import { FAILING_AFTER_RUNS } from "../../../monitors/failing";
import { SCHEDULE_TEXT } from "../../../webhooks/schedule";
import { webhookCreatedSchema, webhookCreateSchema } from "../../../webhooks/schemas";
import { createWebhook } from "../../../webhooks/webhooks";
import { actorOf } from "../../actor";
import { webhooksProcedure, TAGS } from "./shared";

const DELIVERY =
  "Deliveries: when POST /assess produces a high-risk assessment, each webhook subscribed to `high_risk_assessment` gets a POST (never blocking the assessment response) with a JSON body " +
  '`{ "type": "high_risk_assessment", "request_id": "req_…", "workspace_id": "ws_…", "created_at": "<ISO 8601>", "data": { …the assessment result… } }`; ' +
  "a review case resolved (POST /cases/{id}/resolve) sends `case.resolved` the same way, with the case as `data` and the resolving request's id; " +
  "a monitor (POST /monitors) sends `monitor.alert` and `monitor.resolved` with `data` { `alert_id`, `monitor` {id, name, target}, `check`, `severity`, `before`, `after`, `reminder`, `url` (the monitor's dashboard page) } and the run's id; a check that could not run " +
  `${FAILING_AFTER_RUNS} times in a row is a \`monitor.alert\` whose \`after\` is { \`check_failing\`: true, \`reason\`, \`code\`, \`since\`, \`failed_runs\` } (once, until a run works again: a \`monitor.resolved\` whose \`after\` is { \`check_failing\`: false }); ` +
  "`request_id` correlates with GET /events. Headers follow Standard Webhooks: `webhook-id` (the delivery id, the same on every retry: use it to drop duplicates), " +
  "`webhook-timestamp` (Unix seconds of this attempt), and `webhook-signature`: `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{raw body}`, " +
  "keyed with the base64-decoded part of the secret after `whsec_`. Verify it against the raw body with a constant-time comparison and reject old timestamps (e.g. more than 5 minutes). " +
  `Answer 2xx within 5 seconds and do heavy work asynchronously; any other answer, a redirect, or a timeout is retried with exponential backoff after ${SCHEDULE_TEXT}, then the delivery is marked failed. ` +
  "Each attempt checks the workspace's current plan: after a downgrade that removes webhooks, deliveries pause and are not sent; they resume if the plan returns within the retry window.";

export const createProcedure = webhooksProcedure
  .meta({
    errors: ["TARGET_FORBIDDEN", "CONFLICT"],
    openapi: {
      method: "POST",
      path: "/webhooks",
      tags: TAGS,
      summary: "Create a webhook",
      description: `Registers a receiver for events. Body: \`name\` (1..100 characters), \`url\` (absolute https URL on a public host; private, loopback and metadata addresses give 400 TARGET_FORBIDDEN), \`event_types\` (array of \`high_risk_assessment\`, \`case.resolved\`, \`monitor.alert\` and \`monitor.resolved\`). Returns the webhook with its signing \`secret\` (\`whsec_\` + base64), shown only in this response. At most 20 webhooks per workspace (409 CONFLICT beyond). ${DELIVERY}`,
    },
  })
  .input(webhookCreateSchema)
  .output(webhookCreatedSchema)
  .mutation(({ ctx, input }) =>
    createWebhook(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      requestId: ctx.requestId,
      actor: actorOf(ctx),
      name: input.name,
      url: input.url,
      eventTypes: input.event_types,
    }),
  );
