// POST /webhooks/{id}/test: send a test event.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { sendTestEventOrThrow } from "../../../webhooks/manual";
import { deliveryRecordSchema, webhookIdSchema } from "../../../webhooks/schemas";
import { webhooksProcedure, TAGS } from "./shared";

export const sendTestProcedure = webhooksProcedure
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
  );
