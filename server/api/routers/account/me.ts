// The account router's me (dashboard only).
// The procedure, with its contract beside its work.
import { membershipsOf } from "../../../workspaces/members";
import { sessionProcedure } from "../../trpc";

export const meProcedure = sessionProcedure.query(async ({ ctx }) => {
  const memberships = await membershipsOf(ctx.db, ctx.sessionUser.userId);
  return {
    user: ctx.sessionUser,
    workspaces: memberships.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role })),
  };
});
