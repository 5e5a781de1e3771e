// PATCH /webhooks/{id}: update a webhook.
// The procedure, with its contract (meta, input, output) beside its work.
import { webhookRecordSchema, webhookUpdateSchema } from "../../../webhooks/schemas";
import { updateWebhookOrThrow } from "../../../webhooks/webhooks";
import { actorOf } from "../../actor";
import { webhooksProcedure, TAGS } from "./shared";

export const updateProcedure = webhooksProcedure
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
  );
