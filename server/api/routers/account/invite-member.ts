// The account router's inviteMember (dashboard only).
// The procedure, with its contract beside its work.
import { z } from "zod";
import { inviteMember } from "../../../workspaces/members";
import { actorOf } from "../../actor";
import { ownerProcedure } from "../../trpc";

export const inviteMemberProcedure = ownerProcedure
  .input(z.object({ email: z.string().trim().max(254), role: z.enum(["owner", "member"]).default("member") }))
  .mutation(({ ctx, input }) =>
    inviteMember(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      email: input.email,
      role: input.role,
      actor: actorOf(ctx),
    }),
  );
