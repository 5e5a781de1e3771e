import { z } from "zod";
import { clientAddress } from "../../http/origin";
import { requestOrigin, resolveLinkScope } from "../../links/caller";
import { createProtectedLink } from "../../links/create";
import { disableLinkOrThrow, enableLinkOrThrow, listWorkspaceLinks } from "../../links/manage";
import { assertLinkCreationAllowedOrThrow } from "../../links/rate-limit";
import { linkCreatedSchema, linkCreateSchema, linkIdSchema, linkRecordSchema } from "../../links/schemas";
import { actorOf } from "../actor";
import { publicProcedure, router, workspaceProcedure } from "../trpc";

/**
 * Optional-key procedure (spec Authentication 6): no key header -> anonymous scope; any key header -> it must
 * authenticate (401 UNAUTHORIZED, 403 API_KEY_PAUSED) and the scope is its workspace. Never metered.
 */
const optionalKeyProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const scope = await resolveLinkScope(ctx);
  ctx.resHeaders.set("Cache-Control", "private, no-store");
  return next({ ctx: { scope } });
});

const DESCRIPTION = [
  "Creates a protected short link, or reuses one. The API key is optional: without an Authorization or X-API-Key header the link is anonymous;",
  "with one, the key must be valid (401 UNAUTHORIZED otherwise, never an anonymous fallback) and not paused (403 API_KEY_PAUSED), and the link belongs to the key's workspace.",
  "Body: `url` (absolute http or https URL, at most 2048 characters, no user name or password) and optional `expires_at` (ISO 8601, in the future).",
  "The destination host must be a public host name: IP addresses, private-use names and names resolving to private, loopback, link-local or cloud-metadata addresses give 400 TARGET_FORBIDDEN,",
  "as does a domain listed on a configured domain blocklist (the `safety` field reports the check; a slow or failing list never blocks creation).",
  "Reuse: a request without `expires_at` whose normalized destination (scheme and host lowercased, default port and fragment dropped, path and query kept) equals that of an active, non-expiring link in the same scope",
  "(the workspace, or all anonymous callers) gets that link back with `reused: true`; links with an expiry are never reused.",
  "Sends no quota headers; creation is rate limited per workspace, or per client address when anonymous.",
  "`short_url` redirects (302) to `url`; an expired or disabled link answers 410.",
].join(" ");

/** Managing a workspace's own links: any active key of the workspace, or a signed-in owner or member; unmetered. */
const workspaceLinksProcedure = workspaceProcedure.use(({ ctx, next }) => {
  ctx.resHeaders.set("Cache-Control", "private, no-store");
  return next();
});

const MANAGED = "Not counted against the creation rate limit.";

export const linksRouter = router({
  create: optionalKeyProcedure
    .meta({
      errors: ["TARGET_FORBIDDEN", "RATE_LIMITED"],
      openapi: {
        method: "POST",
        path: "/go/links",
        tags: ["Links"],
        summary: "Create a protected link",
        description: DESCRIPTION,
        protect: false,
      },
    })
    .input(linkCreateSchema)
    .output(linkCreatedSchema)
    .mutation(async ({ ctx, input }) => {
      await assertLinkCreationAllowedOrThrow(ctx.scope, clientAddress(ctx.requestHeaders));
      return createProtectedLink(ctx.db, {
        scope: ctx.scope,
        url: input.url,
        expiresAt: input.expires_at ?? null,
        requestId: ctx.requestId,
        origin: requestOrigin(ctx.requestHeaders),
      });
    }),

  list: workspaceLinksProcedure
    .meta({
      openapi: {
        method: "GET",
        path: "/go/links",
        tags: ["Links"],
        summary: "List the workspace's links",
        description: `This workspace's protected links (those created with one of its keys or from its dashboard; anonymous links belong to no workspace), newest first. Each has its \`short_url\`, destination \`url\`, \`status\` (\`active\`; \`expired\` or \`disabled\`, which answer 410 at the short URL), \`clicks\` (redirects served), the destination's blocklist verdict \`safety\` kept from creation, \`created_at\`, \`expires_at\` and \`disabled_at\`. Paginate with \`limit\` (1..100, default 50) and \`cursor\` (the previous page's \`nextCursor\`). ${MANAGED}`,
      },
    })
    .input(
      z.object({ limit: z.coerce.number().int().min(1).max(100).default(50), cursor: z.string().max(64).optional() }),
    )
    .output(z.object({ items: z.array(linkRecordSchema), nextCursor: z.string().nullable() }))
    .query(({ ctx, input }) =>
      listWorkspaceLinks(ctx.db, {
        workspaceId: ctx.principal.workspaceId,
        limit: input.limit,
        cursor: input.cursor ?? null,
        origin: requestOrigin(ctx.requestHeaders),
      }),
    ),

  disable: workspaceLinksProcedure
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
        origin: requestOrigin(ctx.requestHeaders),
      }),
    ),

  enable: workspaceLinksProcedure
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
        origin: requestOrigin(ctx.requestHeaders),
      }),
    ),
});
