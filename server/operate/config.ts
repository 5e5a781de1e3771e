// Settings of the operations endpoints, read at call time and checked at start (server/startup/validate.ts).
import { setting } from "../env";

/** The readiness probe's production budget for the database to answer. */
export const DATABASE_TIMEOUT_MS = 1000;

/** SERVICE_READYZ_DB_TIMEOUT_MS: how long the readiness probe waits for the database (default 1000). */
export const readinessDbTimeoutMs = (): number => setting("SERVICE_READYZ_DB_TIMEOUT_MS");
