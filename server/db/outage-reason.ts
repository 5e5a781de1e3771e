// Whether an error means the database cannot be used (refused or reset connections, server shutting down, database
// or schema dropped, pool exhausted), as opposed to a bug. Pure: server/errors.ts maps it to 503 without a logger.
// Classified first by where it happened, then by code: anything that failed while a connection was being opened
// (marked by markConnectFailures), and any error the server sends with severity FATAL or PANIC (it ends the session:
// the server refuses the connection or the work, whatever the SQLSTATE: 55000 for a database that disallows
// connections, 28P01 for a revoked password). The lists below catch what fails on a connection already open.
// Socket errors of node:net and the pg driver.
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
// PostgreSQL SQLSTATEs: connection exceptions (class 08), the server shutting down or starting (57P01-57P03),
// the database gone (3D000), too many connections (53300), and a dropped schema's tables (42P01, 3F000).
const SQLSTATES = new Set(["57P01", "57P02", "57P03", "3D000", "53300", "42P01", "3F000"]);
// Prisma's driver-adapter kinds for the same conditions.
const ADAPTER_KINDS = new Set([
  "TlsConnectionError",
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TableDoesNotExist",
]);
// Prisma's engine codes: cannot reach, timed out, database missing, connection closed, pool timeout.
const PRISMA_CODES = new Set(["P1001", "P1002", "P1003", "P1008", "P1017", "P2024"]);
// Errors the pg pool and PGlite raise without a code.
const MESSAGES =
  /could not open a database connection|connection terminated|timeout exceeded when trying to connect|connection error|cannot use a pool after calling end|pglite is closed|database is closed|server closed the connection|the database system is (shutting down|starting up)/i;

/**
 * The first answer `pick` gives for `err` or anything in its cause chain (its `cause`, the driver adapter's error in
 * `meta.driverAdapterError`, an AggregateError's `errors`), breadth first, at most 12 errors; null when none answers.
 */
export function firstInCauseChain<T>(err: unknown, pick: (e: object) => T | null): T | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length && seen.size < 12) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const found = pick(e);
    if (found !== null) return found;
    const o = e as { cause?: unknown; meta?: { driverAdapterError?: unknown }; errors?: unknown };
    queue.push(o.cause, o.meta?.driverAdapterError);
    if (Array.isArray(o.errors)) queue.push(...o.errors);
  }
  return null;
}

/** The reason when `err` (or anything in its cause chain) says the database cannot be used, else null. */
export function storeOutageReason(err: unknown): string | null {
  return firstInCauseChain(err, (e) => {
    if (e instanceof StoreConnectError) return `could not open a database connection (${e.reason})`;
    const o = e as {
      code?: unknown;
      severity?: unknown;
      kind?: unknown;
      message?: unknown;
    };
    const code = typeof o.code === "string" ? o.code : "";
    if (SOCKET_CODES.has(code)) return `connection failed (${code})`;
    if (SQLSTATES.has(code) || code.startsWith("08")) return `database refused the work (SQLSTATE ${code})`;
    if (o.severity === "FATAL" || o.severity === "PANIC")
      return `database ended the session (SQLSTATE ${code || "none"})`;
    if (PRISMA_CODES.has(code)) return `database not reachable (${code})`;
    if (typeof o.kind === "string" && ADAPTER_KINDS.has(o.kind)) return `database not reachable (${o.kind})`;
    if (typeof o.message === "string" && MESSAGES.test(o.message)) return o.message.split("\n")[0].slice(0, 160);
    return null;
  });
}

/**
 * A failure while the pool opened a connection. Its message survives any wrapping by the driver adapter or Prisma
 * (both rethrow an error they do not recognise), and the classifier above also knows it by its message.
 */
export class StoreConnectError extends Error {
  readonly reason: string;
  constructor(cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    const reason = typeof code === "string" && code ? code : "no code";
    super(`could not open a database connection (${reason}): ${(cause as Error | null)?.message ?? String(cause)}`, {
      cause,
    });
    this.name = "StoreConnectError";
    this.reason = reason;
  }
}

interface ConnectingPool {
  connect(...args: unknown[]): unknown;
}

/**
 * Wraps a node-postgres pool's connect (both its promise and its callback form, which pool.query uses) so that a
 * failure to open a connection is thrown as a StoreConnectError. A connection already checked out is not touched.
 */
export function markConnectFailures(pool: ConnectingPool): void {
  const connect = pool.connect.bind(pool);
  pool.connect = (...args: unknown[]) => {
    const callback = args[0];
    if (typeof callback === "function")
      return connect((err: unknown, ...rest: unknown[]) => callback(err ? new StoreConnectError(err) : err, ...rest));
    return (connect() as Promise<unknown>).catch((err: unknown) => {
      throw new StoreConnectError(err);
    });
  };
}
