// The request context shared by both entries. Each entry (the REST API at /v1 with an API key, the dashboard's
// tRPC endpoint at /api/trpc with a session) supplies how to find its principal; the procedures below never look at headers themselves.
import type { Db } from "../db/client";
import type { Principal, SessionUser } from "../auth/principal";

export type { Principal, SessionUser };

export interface Context {
  db: Db;
  /** Which entry the request came through: the REST API (/v1) or the dashboard's tRPC endpoint (/api/trpc). */
  via: "api" | "dashboard";
  requestId: string;
  /** Response headers; both entries copy them onto the response (quota headers, Retry-After, ...). */
  resHeaders: Headers;
  /**
   * Resolves the caller to a workspace principal or throws AppError (401/403). Memoised per request. `cached`
   * lets an API key come from the key cache (server/keys/cache.ts; only the metered ladder asks, because only it
   * confirms such a principal); `fresh` reads the key again, whatever was resolved before. Entries without a key
   * cache ignore both.
   */
  authenticate(read?: "cached" | "fresh"): Promise<Principal>;
  /** Signed-in dashboard user, if any (always null on the REST API). */
  sessionUser: SessionUser | null;
  /** The request's headers, for procedures whose rules depend on them (e.g. an optional API key). */
  requestHeaders: Headers;
  /**
   * Set by the bulk job worker only: the item's units were reserved with its job, so the metered procedure
   * reserves nothing and sets `admitted` once its own checks (input, preflight) have passed, at the point where a
   * single request would have reserved. An item refused before that point gets its units back, and so do the
   * units the ladder sets in `givenBack` (what it could not answer: server/api/trpc.ts givenBackOf).
   */
  prepaid?: { units: number; admitted: boolean; givenBack?: { units: number; reason: string } };
  /**
   * Given by the REST entry, filled by the metered ladder once it reserved units for this request: what to give
   * back if the answer cannot be delivered (the client closed the connection before it was written;
   * server/api/rest/undelivered.ts). A slot, not a field, because tRPC hands each middleware a copy of the context.
   */
  charge?: { current: Charge | null };
}

/** Units reserved for one request, as the ledger recorded them. */
export interface Charge {
  workspaceId: string;
  units: number;
  requestId: string;
  endpoint: string;
  apiKeyId: string | null;
  userId: string | null;
  reservedAt: Date;
}
