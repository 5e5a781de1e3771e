// GET /webhooks/{id}/deliveries: webhook delivery log.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { listDeliveriesOrThrow } from "../../../webhooks/deliveries";
import { deliveryRecordSchema, webhookIdSchema } from "../../../webhooks/schemas";
import { nextPageFields, withNextPage } from "../snake-twins";
import { webhooksProcedure, TAGS } from "./shared";

export const deliveriesProcedure = webhooksProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "GET",
      path: "/webhooks/{id}/deliveries",
      tags: TAGS,
      summary: "Webhook delivery log",
      description: `Recent deliveries of one webhook, newest first: \`status\` (pending, delivered, failed, paused, or expired when webhooks returned to the plan after the retry window), \`attempts\`, \`last_status\` (HTTP status of the last attempt), \`last_error\`, \`next_attempt_at\`, \`created_at\`, \`delivered_at\`, and the \`request_id\` that correlates with GET /events. Paginate with \`limit\` (1..100, default 50) and \`cursor\` (the previous page's \`next_cursor\`; one that names none of this webhook's deliveries is 400 INVALID_REQUEST). 404 NOT_FOUND for an unknown id or another workspace's webhook.`,
    },
  })
  .input(
    z.object({
      id: webhookIdSchema,
      limit: z.coerce.number().int().min(1).max(100).default(50),
      cursor: z.string().max(64).optional(),
    }),
  )
  .output(z.object({ items: z.array(deliveryRecordSchema), ...nextPageFields }))
  .query(async ({ ctx, input }) =>
    withNextPage(
      await listDeliveriesOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        webhookId: input.id,
        limit: input.limit,
        cursor: input.cursor ?? null,
      }),
    ),
  );
