// The account router's overview (dashboard only).
// The procedure, with its contract beside its work.
import { readUsage } from "../../../quota/reserve";
import { workspaceProcedure } from "../../trpc";

export const overviewProcedure = workspaceProcedure.query(async ({ ctx }) => {
  const { entitlements, workspaceId } = ctx.principal;
  const ws = await ctx.db.workspace.findUniqueOrThrow({
    where: { id: workspaceId },
    select: { id: true, name: true },
  });
  const usage = await readUsage(ctx.db, workspaceId, entitlements.monthlyUnits);
  return {
    workspace: ws,
    role: ctx.principal.kind === "member" ? ctx.principal.role : null,
    entitlements,
    usage: { ...usage, reset: usage.reset.toISOString() },
  };
});
