// What several procedures of the links router share (schemas, helpers), or what other modules import from it.
import { workspaceProcedure } from "../../trpc";

/** Managing a workspace's own links: any active key of the workspace, or a signed-in owner or member; unmetered. */
export const workspaceLinksProcedure = workspaceProcedure.use(({ ctx, next }) => {
  ctx.resHeaders.set("Cache-Control", "private, no-store");
  return next();
});

export const MANAGED = "Not counted against the creation rate limit.";
