// What became of each API request a workspace made (its status), counted per UTC day for the analytics page's
// error rates. Recorded by the procedure ladder (server/api/trpc.ts, `authenticated`) once the caller is known;
// requests refused before that (no or a bad key) belong to no workspace and are not counted here.
import type { Db } from "../db/client";

export interface RequestOutcome {
  workspaceId: string;
  /** The API key that made the request; null for the dashboard. */
  apiKeyId: string | null;
  /** The procedure's path, e.g. "ip.lookup". */
  procedure: string;
  /** The HTTP status the request was answered with. */
  status: number;
}

/** Notes one request's outcome, off the request's critical path (never throws, never waits). */
export function noteRequestOutcome(_db: Db, _outcome: RequestOutcome): void {
  // Implemented by the analytics change (batched writes like lookup history).
}
