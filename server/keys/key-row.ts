// The row shape the hot path reads for a key, in a file of its own so that the key cache and authentication can
// both name it without importing each other.
/** A stored key as the hot path reads it: its status, workspace and the workspace's entitling plans. */
export interface KeyRow {
  id: string;
  status: string;
  workspaceId: string;
  lastUsedAt: Date | null;
  allowedOrigins: string[];
  plans: string[] | null;
  /** The earliest end of a grace period among the entitling subscriptions (when one is past due). */
  graceEndsAt: Date | null;
  /** The earliest period end of an entitling subscription set to cancel. */
  cancelsAt: Date | null;
}
