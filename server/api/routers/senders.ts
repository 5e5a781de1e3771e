// Sender slots, for the dashboard (tRPC) and {account_url}/api/account/senders. No OpenAPI meta: account routes
// are reached with a session, never with an API key under /v1 (spec: keys cannot administer senders).
// Unmetered: monitoring is the sender slots' own service and unlocks no intelligence route.
import { AppError } from "../../errors";
import {
  addSenderOrThrow,
  assertSenderSlots,
  listSenders,
  removeSenderOrThrow,
  verifySenderOrThrow,
} from "../../senders/senders";
import { addSenderInput, senderIdInput, senderListSchema, senderSchema } from "../../senders/schemas";
import { z } from "zod";
import { actorOf } from "../actor";
import { ownerProcedure, router, workspaceProcedure } from "../trpc";

/** A signed-in member of the selected workspace; an API key principal never reaches the account routes. */
const memberProcedure = workspaceProcedure.use(({ ctx, next }) => {
  if (ctx.principal.kind !== "member")
    throw new AppError("UNAUTHORIZED", "Sender slots are managed with a signed-in session, not an API key.");
  return next();
});

/** Adding needs a plan with slots: checked before the body is validated, as plan checks are elsewhere. */
const withSlots = ownerProcedure.use(({ ctx, next }) => {
  assertSenderSlots(ctx.principal.entitlements.senders);
  return next();
});

export const sendersRouter = router({
  list: memberProcedure
    .output(senderListSchema)
    .query(({ ctx }) =>
      listSenders(ctx.db, { workspaceId: ctx.principal.workspaceId, slots: ctx.principal.entitlements.senders }),
    ),

  add: withSlots
    .input(addSenderInput)
    .output(senderSchema)
    .mutation(({ ctx, input }) =>
      addSenderOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        slots: ctx.principal.entitlements.senders,
        input,
        actor: actorOf(ctx),
      }),
    ),

  verify: ownerProcedure
    .input(senderIdInput)
    .output(senderSchema)
    .mutation(({ ctx, input }) =>
      verifySenderOrThrow(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        id: input.id,
        slots: ctx.principal.entitlements.senders,
        actor: actorOf(ctx),
      }),
    ),

  remove: ownerProcedure
    .input(senderIdInput)
    .output(z.object({ id: z.string(), removed: z.literal(true) }))
    .mutation(({ ctx, input }) =>
      removeSenderOrThrow(ctx.db, { workspaceId: ctx.principal.workspaceId, id: input.id, actor: actorOf(ctx) }),
    ),
});
