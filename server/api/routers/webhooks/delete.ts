// DELETE /webhooks/{id}: delete a webhook.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { webhookIdSchema } from "../../../webhooks/schemas";
import { deleteWebhookOrThrow } from "../../../webhooks/webhooks";
import { actorOf } from "../../actor";
import { webhooksProcedure, TAGS } from "./shared";

export const deleteProcedure = webhooksProcedure
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
  );
