import { z } from "zod";
import { listDeliveriesOrThrow } from "../../webhooks/deliveries";
import { redeliverOrThrow, sendTestEventOrThrow } from "../../webhooks/manual";
import { SCHEDULE_TEXT } from "../../webhooks/schedule";
import {
  deliveryRecordSchema,
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookIdSchema,
  webhookRecordSchema,
  webhookUpdateSchema,
} from "../../webhooks/schemas";
import { createWebhook, deleteWebhookOrThrow, listWebhooks, updateWebhookOrThrow } from "../../webhooks/webhooks";
import { actorOf } from "../actor";
import { authenticated, router } from "../trpc";

/** Webhooks are unmetered but keep their plan check (spec Authentication 8): the webhooks entitlement. */
const webhooksProcedure = authenticated
  .meta({ requires: { webhooks: true, subject: "Webhooks need" } })
  .use(({ ctx, next }) => {
    ctx.resHeaders.set("Cache-Control", "private, no-store");
    return next();
  });

const TAGS = ["Webhooks"];

const DELIVERY =
  "Deliveries: when POST /assess produces a high-risk assessment, each webhook subscribed to `high_risk_assessment` gets a POST (never blocking the assessment response) with a JSON body " +
  '`{ "type": "high_risk_assessment", "request_id": "req_…", "workspace_id": "ws_…", "created_at": "<ISO 8601>", "data": { …the assessment result… } }`; ' +
  "a review case resolved (POST /cases/{id}/resolve) sends `case.resolved` the same way, with the case as `data` and the resolving request's id; " +
  "`request_id` correlates with GET /events. Headers follow Standard Webhooks: `webhook-id` (the delivery id, the same on every retry: use it to drop duplicates), " +
  "`webhook-timestamp` (Unix seconds of this attempt), and `webhook-signature`: `v1,` + base64 of HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{raw body}`, " +
  "keyed with the base64-decoded part of the secret after `whsec_`. Verify it against the raw body with a constant-time comparison and reject old timestamps (e.g. more than 5 minutes). " +
  `Answer 2xx within 5 seconds and do heavy work asynchronously; any other answer, a redirect, or a timeout is retried with exponential backoff after ${SCHEDULE_TEXT}, then the delivery is marked failed. ` +
  "Each attempt checks the workspace's current plan: after a downgrade that removes webhooks, deliveries pause and are not sent; they resume if the plan returns within the retry window.";

export const webhooksRouter = router({
  create: webhooksProcedure
    .meta({
      errors: ["TARGET_FORBIDDEN", "CONFLICT"],
      openapi: {
        method: "POST",
        path: "/webhooks",
        tags: TAGS,
        summary: "Create a webhook",
        description: `Registers a receiver for events. Body: \`name\` (1..100 characters), \`url\` (absolute https URL on a public host; private, loopback and metadata addresses give 400 TARGET_FORBIDDEN), \`event_types\` (array of \`high_risk_assessment\` and \`case.resolved\`). Returns the webhook with its signing \`secret\` (\`whsec_\` + base64), shown only in this response. At most 20 webhooks per workspace (409 CONFLICT beyond). ${DELIVERY}`,
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
    ),

  list: webhooksProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/webhooks",
        tags: TAGS,
        summary: "List webhooks",
        description: `This workspace's webhooks, oldest first, without their secrets.`,
      },
    })
    .input(z.object({}))
    .output(z.object({ items: z.array(webhookRecordSchema) }))
    .query(async ({ ctx }) => ({ items: await listWebhooks(ctx.db, ctx.principal.workspaceId) })),

  update: webhooksProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "PATCH",
        path: "/webhooks/{id}",
        tags: TAGS,
        summary: "Update a webhook",
        description: `Changes any of \`name\`, \`url\` (vetted as on creation) and \`event_types\`; at least one is required. The secret does not change. 404 NOT_FOUND for an unknown id or another workspace's webhook.`,
      },
    })
    .input(webhookUpdateSchema)
    .output(webhookRecordSchema)
    .mutation(({ ctx, input }) =>
      updateWebhookOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        requestId: ctx.requestId,
        actor: actorOf(ctx),
        webhookId: input.id,
        name: input.name,
        url: input.url,
        eventTypes: input.event_types,
      }),
    ),

  delete: webhooksProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "DELETE",
        path: "/webhooks/{id}",
        tags: TAGS,
        summary: "Delete a webhook",
        description: `Deletes the webhook and its delivery log; queued deliveries and retries stop. Returns \`{ "id": "wh_…", "deleted": true }\`. 404 NOT_FOUND for an unknown id or another workspace's webhook.`,
      },
    })
    .input(z.object({ id: webhookIdSchema }))
    .output(z.object({ id: z.string(), deleted: z.literal(true) }))
    .mutation(({ ctx, input }) =>
      deleteWebhookOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        requestId: ctx.requestId,
        actor: actorOf(ctx),
        webhookId: input.id,
      }),
    ),

  deliveries: webhooksProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "GET",
        path: "/webhooks/{id}/deliveries",
        tags: TAGS,
        summary: "Webhook delivery log",
        description: `Recent deliveries of one webhook, newest first: \`status\` (pending, delivered, failed, paused, or expired when webhooks returned to the plan after the retry window), \`attempts\`, \`last_status\` (HTTP status of the last attempt), \`last_error\`, \`next_attempt_at\`, \`created_at\`, \`delivered_at\`, and the \`request_id\` that correlates with GET /events. Paginate with \`limit\` (1..100, default 50) and \`cursor\` (the previous page's \`nextCursor\`). 404 NOT_FOUND for an unknown id or another workspace's webhook.`,
      },
    })
    .input(
      z.object({
        id: webhookIdSchema,
        limit: z.coerce.number().int().min(1).max(100).default(50),
        cursor: z.string().max(64).optional(),
      }),
    )
    .output(z.object({ items: z.array(deliveryRecordSchema), nextCursor: z.string().nullable() }))
    .query(({ ctx, input }) =>
      listDeliveriesOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        webhookId: input.id,
        limit: input.limit,
        cursor: input.cursor ?? null,
      }),
    ),

  sendTest: webhooksProcedure
    .meta({
      errors: ["NOT_FOUND"],
      openapi: {
        method: "POST",
        path: "/webhooks/{id}/test",
        tags: TAGS,
        summary: "Send a test event",
        description: `Queues a sample \`high_risk_assessment\` to this webhook (the payload carries \`"test": true\` at the top level and in \`data\`; its \`request_id\` is this request's), signed, sent and retried like a real event. Returns the queued delivery; follow it in the delivery log. 404 NOT_FOUND for an unknown id or another workspace's webhook.`,
      },
    })
    .input(z.object({ id: webhookIdSchema }))
    .output(deliveryRecordSchema)
    .mutation(({ ctx, input }) =>
      sendTestEventOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        webhookId: input.id,
        requestId: ctx.requestId,
      }),
    ),

  redeliver: webhooksProcedure
    .meta({
      errors: ["NOT_FOUND", "CONFLICT"],
      openapi: {
        method: "POST",
        path: "/webhooks/{id}/deliveries/{delivery_id}/redeliver",
        tags: TAGS,
        summary: "Redeliver a delivery",
        description: `Sends an earlier delivery's body again as a new delivery with a new \`webhook-id\` (the original stays in the log as it was), signed, sent and retried like a real event. Returns the new delivery. 409 CONFLICT while the original is still pending; 404 NOT_FOUND for an unknown webhook or delivery, or another workspace's.`,
      },
    })
    .input(
      z.object({
        id: webhookIdSchema,
        delivery_id: z.string().trim().min(1).max(64).describe("Delivery id (`msg_…`)"),
      }),
    )
    .output(deliveryRecordSchema)
    .mutation(({ ctx, input }) =>
      redeliverOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        webhookId: input.id,
        deliveryId: input.delivery_id,
      }),
    ),
});
