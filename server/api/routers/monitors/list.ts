// GET /monitors: list monitors.
// The procedure, with its contract (meta, input, output) beside its work.
import { listMonitors } from "../../../monitors/monitors";
import { monitorListInputSchema, monitorPageSchema } from "../../../monitors/schemas";
import { monitorsProcedure, TAGS, ABOUT } from "./shared";

export const listProcedure = monitorsProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/monitors",
      tags: TAGS,
      summary: "List monitors",
      description: `This workspace's monitors, oldest first, each with its latest state per check and its next run; paginate with \`limit\` and \`cursor\` (the previous page's \`next_cursor\`; one that names none of this workspace's monitors is 400 INVALID_REQUEST). How many monitors each plan holds, and how often they may run: POST /monitors. ${ABOUT}`,
    },
  })
  .input(monitorListInputSchema)
  .output(monitorPageSchema)
  .query(({ ctx, input }) => listMonitors(ctx.db, ctx.principal.workspaceId, input));
