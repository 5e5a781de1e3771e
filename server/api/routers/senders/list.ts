// The senders router's list (dashboard only).
// The procedure, with its contract beside its work.
import { AppError } from "../../../errors";
import { listSenders } from "../../../senders/senders";
import { senderListSchema } from "../../../senders/schemas";
import { workspaceProcedure } from "../../trpc";

/** A signed-in member of the selected workspace; an API key principal never reaches the account routes. */
const memberProcedure = workspaceProcedure.use(({ ctx, next }) => {
  if (ctx.principal.kind !== "member")
    throw new AppError("UNAUTHORIZED", "Sender slots are managed with a signed-in session, not an API key.");
  return next();
});

export const listProcedure = memberProcedure
  .output(senderListSchema)
  .query(({ ctx }) =>
    listSenders(ctx.db, { workspaceId: ctx.principal.workspaceId, slots: ctx.principal.entitlements.senders }),
  );
