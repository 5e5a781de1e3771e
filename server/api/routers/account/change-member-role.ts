// The account router's changeMemberRole (dashboard only).
// The procedure, with its contract beside its work.
import { z } from "zod";
import { changeMemberRoleOrThrow } from "../../../workspaces/members";
import { actorOf } from "../../actor";
import { ownerProcedure } from "../../trpc";

/** Owner <-> member; the last owner cannot be demoted. */
export const changeMemberRoleProcedure = ownerProcedure
  .input(z.object({ memberId: z.string().min(1).max(64), role: z.enum(["owner", "member"]) }))
  .mutation(({ ctx, input }) =>
    changeMemberRoleOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      memberId: input.memberId,
      role: input.role,
      actor: actorOf(ctx),
    }),
  );
