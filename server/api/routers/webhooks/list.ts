// GET /webhooks: list webhooks.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { webhookRecordSchema } from "../../../webhooks/schemas";
import { listWebhooks } from "../../../webhooks/webhooks";
import { webhooksProcedure, TAGS } from "./shared";

export const listProcedure = webhooksProcedure
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
  .query(async ({ ctx }) => ({ items: await listWebhooks(ctx.db, ctx.principal.workspaceId) }));
