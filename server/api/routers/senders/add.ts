// The senders router's add (dashboard only).
// The procedure, with its contract beside its work.
import { addSenderOrThrow, assertSenderSlots } from "../../../senders/senders";
import { addSenderInput, senderSchema } from "../../../senders/schemas";
import { actorOf } from "../../actor";
import { ownerProcedure } from "../../trpc";

/** Adding needs a plan with slots: checked before the body is validated, as plan checks are elsewhere. */
const withSlots = ownerProcedure.use(({ ctx, next }) => {
  assertSenderSlots(ctx.principal.entitlements.senders);
  return next();
});

export const addProcedure = withSlots
  .input(addSenderInput)
  .output(senderSchema)
  .mutation(({ ctx, input }) =>
    addSenderOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      slots: ctx.principal.entitlements.senders,
      input,
      actor: actorOf(ctx),
    }),
  );
