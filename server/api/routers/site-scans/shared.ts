// What several procedures of the scans router share (schemas, helpers), or what other modules import from it.
import { publicProcedure } from "../../trpc";
import type { Context } from "../../context";

/** No key header: anonymous. A key header (or a dashboard session): it must authenticate; its workspace is the viewer. */
export async function viewerWorkspace(ctx: Context): Promise<string | null> {
  const h = ctx.requestHeaders;
  if (ctx.via === "api" && !h.has("authorization") && !h.has("x-api-key")) return null;
  if (ctx.via === "dashboard" && !ctx.sessionUser) return null;
  return (await ctx.authenticate()).workspaceId;
}

export const optionalKeyProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const viewer = await viewerWorkspace(ctx);
  return next({ ctx: { viewer } });
});
