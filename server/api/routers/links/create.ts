// POST /go/links: create a protected link.
// The procedure, with its contract (meta, input, output) beside its work.
import { clientAddress } from "../../../http/origin";
import { requestOrigin } from "../../../http/origin";
import { resolveLinkScope } from "../../../links/caller";
import { createProtectedLink } from "../../../links/create";
import { assertLinkCreationAllowedOrThrow } from "../../../links/rate-limit";
import { linkCreatedSchema, linkCreateSchema } from "../../../links/schemas";
import { publicProcedure } from "../../trpc";

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
  "as do a port browsers refuse to open (WHATWG Fetch's bad ports: 0, 22, 25, ...) and a domain listed on a configured domain blocklist (the `safety` field reports the check; a slow or failing list never blocks creation).",
  "Reuse: a request without `expires_at` whose normalized destination (scheme and host lowercased, default port and fragment dropped, path and query kept) equals that of an active, non-expiring link in the same scope",
  "(the workspace, or all anonymous callers) gets that link back with `reused: true`; links with an expiry are never reused.",
  "Sends no quota headers; creation is rate limited per workspace, or per client address when anonymous.",
  "`short_url` redirects (302) to `url`; an expired or disabled link answers 410.",
].join(" ");

export const createProcedure = optionalKeyProcedure
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
      expiresAt: input.expires_at?.toISOString() ?? null,
      requestId: ctx.requestId,
      origin: requestOrigin({ headers: ctx.requestHeaders }),
    });
  });
