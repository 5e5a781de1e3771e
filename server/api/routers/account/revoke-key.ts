// The account router's revokeKey (dashboard only).
// The procedure, with its contract beside its work.
import { z } from "zod";
import { revokeApiKeyOrThrow } from "../../../keys/keys";
import { actorOf } from "../../actor";
import { ownerProcedure } from "../../trpc";

export const revokeKeyProcedure = ownerProcedure
  .input(z.object({ keyId: z.string().min(1).max(64) }))
  .mutation(({ ctx, input }) =>
    revokeApiKeyOrThrow(ctx.db, {
      keyId: input.keyId,
      workspaceId: ctx.principal.workspaceId,
      actor: actorOf(ctx),
      requestId: ctx.requestId,
    }),
  );
