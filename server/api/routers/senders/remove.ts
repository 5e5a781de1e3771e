// The senders router's remove (dashboard only).
// The procedure, with its contract beside its work.
import { removeSenderOrThrow } from "../../../senders/senders";
import { senderIdInput } from "../../../senders/schemas";
import { z } from "zod";
import { actorOf } from "../../actor";
import { ownerProcedure } from "../../trpc";

export const removeProcedure = ownerProcedure
  .input(senderIdInput)
  .output(z.object({ id: z.string(), removed: z.literal(true) }))
  .mutation(({ ctx, input }) =>
    removeSenderOrThrow(ctx.db, { workspaceId: ctx.principal.workspaceId, id: input.id, actor: actorOf(ctx) }),
  );
