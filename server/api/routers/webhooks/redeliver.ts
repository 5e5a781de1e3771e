// POST /webhooks/{id}/deliveries/{delivery_id}/redeliver: redeliver a delivery.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { redeliverOrThrow } from "../../../webhooks/manual";
import { deliveryRecordSchema, webhookIdSchema } from "../../../webhooks/schemas";
import { webhooksProcedure, TAGS } from "./shared";

export const redeliverProcedure = webhooksProcedure
  .meta({
    errors: ["NOT_FOUND", "CONFLICT"],
    openapi: {
      method: "POST",
      path: "/webhooks/{id}/deliveries/{delivery_id}/redeliver",
      tags: TAGS,
      summary: "Redeliver a delivery",
      description: `Sends an earlier delivery's body again as a new delivery with a new \`webhook-id\` (the original stays in the log as it was), signed, sent and retried like a real event. Returns the new delivery. The body's \`request_id\` is the original's: a receiver that must act once per event deduplicates on \`type\` and \`request_id\` (\`webhook-id\` tells apart the deliveries, and stays the same across one delivery's retries). 409 CONFLICT while the original is still pending; 404 NOT_FOUND for an unknown webhook or delivery, or another workspace's.`,
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
  );
