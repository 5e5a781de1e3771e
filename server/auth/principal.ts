// Who a request acts for, in domain terms: a workspace reached with an API key or by a signed-in member, and the
// signed-in dashboard user. The API layer's Context (server/api/context.ts) carries these; domain modules (auth,
// bulk, workspaces) take them from here, so they need nothing from the API layer.
import type { Entitlements } from "../plans/catalog";

export type Principal =
  | {
      kind: "api_key";
      apiKeyId: string;
      workspaceId: string;
      entitlements: Entitlements;
      /** A publishable key (pk_live_…) from a visitor's browser: what the page sends about itself is not trusted. */
      publishable?: true;
      /** Served from the key cache and not yet confirmed: the plans it was cached with (server/keys/cache.ts). */
      unconfirmed?: { plans: string[] };
    }
  | {
      kind: "member";
      userId: string;
      email: string;
      workspaceId: string;
      role: "owner" | "member";
      entitlements: Entitlements;
      /** Why this member may not run dashboard lookups (beyond the plan's included members), or null. */
      lookupsBlocked: string | null;
    };

export interface SessionUser {
  userId: string;
  email: string;
  name: string | null;
}

/** The answer to a dashboard or account request without a session. */
export const SIGN_IN_FIRST = "Sign in first.";
