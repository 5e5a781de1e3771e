// The account router's removeMember (dashboard only).
// The procedure, with its contract beside its work.
import { z } from "zod";
import { removeMemberOrThrow } from "../../../workspaces/members";
import { actorOf } from "../../actor";
import { ownerProcedure } from "../../trpc";

export const removeMemberProcedure = ownerProcedure
  .input(z.object({ memberId: z.string().min(1).max(64) }))
  .mutation(({ ctx, input }) =>
    removeMemberOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      memberId: input.memberId,
      actor: actorOf(ctx),
    }),
  );
