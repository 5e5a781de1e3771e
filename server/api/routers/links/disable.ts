// POST /go/links/{id}/disable: disable a link.
// The procedure, with its contract (meta, input, output) beside its work.
import { z } from "zod";
import { requestOrigin } from "../../../http/origin";
import { disableLinkOrThrow } from "../../../links/manage";
import { linkIdSchema, linkRecordSchema } from "../../../links/schemas";
import { actorOf } from "../../actor";
import { workspaceLinksProcedure, MANAGED } from "./shared";

export const disableProcedure = workspaceLinksProcedure
  .meta({
    errors: ["NOT_FOUND"],
    openapi: {
      method: "POST",
      path: "/go/links/{id}/disable",
      tags: ["Links"],
      summary: "Disable a link",
      description: `Disables one of this workspace's links: from then on its short URL answers 410 \`LINK_DISABLED\` (visits are recorded as \`link.visit_blocked\` events) until POST /go/links/{id}/enable turns it back on; a disabled link is never reused for a new link to the same destination. Returns the link as GET /go/links lists it, now with \`status: "disabled"\` and \`disabled_at\`. The change is recorded as a \`link.disabled\` investigation event with who made it. Disabling a disabled link changes nothing and returns it as it is. 404 NOT_FOUND for an unknown id, an anonymous link or another workspace's link. ${MANAGED}`,
    },
  })
  .input(z.object({ id: linkIdSchema }))
  .output(linkRecordSchema)
  .mutation(({ ctx, input }) =>
    disableLinkOrThrow(ctx.db, {
      workspaceId: ctx.principal.workspaceId,
      linkId: input.id,
      actor: actorOf(ctx),
      requestId: ctx.requestId,
      origin: requestOrigin({ headers: ctx.requestHeaders }),
    }),
  );
