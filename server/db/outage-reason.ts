// Whether an error means the database cannot be used (refused or reset connections, server shutting down, database
// or schema dropped, pool exhausted), as opposed to a bug. Pure: server/errors.ts maps it to 503 without a logger.
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
  /connection terminated|timeout exceeded when trying to connect|connection error|cannot use a pool after calling end|pglite is closed|database is closed|server closed the connection|the database system is (shutting down|starting up)/i;

/** The reason when `err` (or anything in its cause chain) says the database cannot be used, else null. */
export function storeOutageReason(err: unknown): string | null {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length && seen.size < 12) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    const o = e as {
      code?: unknown;
      kind?: unknown;
      message?: unknown;
      cause?: unknown;
      meta?: { driverAdapterError?: unknown };
      errors?: unknown;
    };
    const code = typeof o.code === "string" ? o.code : "";
    if (SOCKET_CODES.has(code)) return `connection failed (${code})`;
    if (SQLSTATES.has(code) || code.startsWith("08")) return `database refused the work (SQLSTATE ${code})`;
    if (PRISMA_CODES.has(code)) return `database not reachable (${code})`;
    if (typeof o.kind === "string" && ADAPTER_KINDS.has(o.kind)) return `database not reachable (${o.kind})`;
    if (typeof o.message === "string" && MESSAGES.test(o.message)) return o.message.split("\n")[0].slice(0, 160);
    queue.push(o.cause, o.meta?.driverAdapterError);
    if (Array.isArray(o.errors)) queue.push(...o.errors);
  }
  return null;
}
