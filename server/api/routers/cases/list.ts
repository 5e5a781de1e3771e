// GET /cases: list review cases.
// The procedure, with its contract (meta, input, output) beside its work.
import { listCases } from "../../../cases/cases";
import { caseListInputSchema, casePageSchema } from "../../../cases/schemas";
import { casesProcedure, TAGS, ABOUT } from "./shared";

export const listProcedure = casesProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/cases",
      tags: TAGS,
      summary: "List review cases",
      description: `The review queue: open cases oldest first (\`status=resolved\`: resolved ones newest first), filtered by \`decision\`, \`rule\` and \`min_age_minutes\`; paginate with \`limit\` and \`cursor\` (the previous page's \`next_cursor\`; one that names none of this workspace's cases is 400 INVALID_REQUEST). \`counts\` gives the open cases and the age of the oldest whatever the filters. ${ABOUT}`,
    },
  })
  .input(caseListInputSchema)
  .output(casePageSchema)
  .query(({ ctx, input }) => listCases(ctx.db, ctx.principal.workspaceId, input));
