// The account router's createKey (dashboard only).
// The procedure, with its contract beside its work.
import { z } from "zod";
import { createApiKey } from "../../../keys/keys";
import { actorOf } from "../../actor";
import { ownerProcedure } from "../../trpc";

/** A secret key (server side, every route) or a publishable one (only POST /v1/device/check, from the listed web origins). */
export const createKeyProcedure = ownerProcedure
  .input(
    z.object({
      name: z.string().trim().max(100).optional(),
      kind: z.enum(["secret", "publishable"]).default("secret"),
      allowedOrigins: z.array(z.string().max(300)).max(50).optional(),
    }),
  )
  .mutation(({ ctx, input }) =>
    createApiKey(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      name: input.name,
      kind: input.kind,
      allowedOrigins: input.allowedOrigins,
      actor: actorOf(ctx),
      requestId: ctx.requestId,
    }),
  );
