// POST /go/links/{id}/enable: enable a disabled link.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { requestOrigin } from "../../../http/origin";
import { enableLinkOrThrow } from "../../../links/manage";
import { linkIdSchema, linkRecordSchema } from "../../../links/schemas";
import { actorOf } from "../../actor";
import { workspaceLinksProcedure, MANAGED } from "./shared";

export const enableProcedure = workspaceLinksProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "POST",
      path: "/go/links/{id}/enable",
      tags: ["Links"],
      summary: "Enable a disabled link",
      description: `Turns a disabled link of this workspace back on: its short URL redirects again (an expired link stays expired and keeps answering 410). Returns the link as GET /go/links lists it. The change is recorded as a \`link.enabled\` investigation event with who made it. Enabling a link that is not disabled changes nothing and returns it as it is. 404 NOT_FOUND for an unknown id, an anonymous link or another workspace's link. ${MANAGED}`,
    },
  })
  .input(z.object({ id: linkIdSchema }))
  .output(linkRecordSchema)
  .mutation(({ ctx, input }) =>
    enableLinkOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      linkId: input.id,
      actor: actorOf(ctx),
      requestId: ctx.requestId,
      origin: requestOrigin({ headers: ctx.requestHeaders }),
    }),
  );
