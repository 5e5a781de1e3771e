// The senders router's verify (dashboard only).
// The procedure, with its contract beside its work.
import { verifySenderOrThrow } from "../../../senders/senders";
import { senderIdInput, senderSchema } from "../../../senders/schemas";
import { actorOf } from "../../actor";
import { ownerProcedure } from "../../trpc";

export const verifyProcedure = ownerProcedure
  .input(senderIdInput)
  .output(senderSchema)
  .mutation(({ ctx, input }) =>
    verifySenderOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      id: input.id,
      slots: ctx.principal.entitlements.senders,
      actor: actorOf(ctx),
    }),
  );
