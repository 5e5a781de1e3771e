// GET /go/links: list the workspace's links.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { requestOrigin } from "../../../http/origin";
import { listWorkspaceLinks } from "../../../links/manage";
import { linkRecordSchema } from "../../../links/schemas";
import { nextPageFields, withNextPage } from "../snake-twins";
import { workspaceLinksProcedure, MANAGED } from "./shared";

export const listProcedure = workspaceLinksProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/go/links",
      tags: ["Links"],
      summary: "List the workspace's links",
      description: `This workspace's protected links (those created with one of its keys or from its dashboard; anonymous links belong to no workspace), newest first. Each has its \`short_url\`, destination \`url\`, \`status\` (\`active\`; \`expired\` or \`disabled\`, which answer 410 at the short URL), \`clicks\` (redirects served), the destination's blocklist verdict \`safety\` kept from creation, \`created_at\`, \`expires_at\` and \`disabled_at\`. Paginate with \`limit\` (1..100, default 50) and \`cursor\` (the previous page's \`next_cursor\`; one that names none of this workspace's links is 400 INVALID_REQUEST). ${MANAGED}`,
    },
  })
  .input(
    z.object({ limit: z.coerce.number().int().min(1).max(100).default(50), cursor: z.string().max(64).optional() }),
  )
  .output(z.object({ items: z.array(linkRecordSchema), ...nextPageFields }))
  .query(async ({ ctx, input }) =>
    withNextPage(
      await listWorkspaceLinks(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        limit: input.limit,
        cursor: input.cursor ?? null,
        origin: requestOrigin({ headers: ctx.requestHeaders }),
      }),
    ),
  );
