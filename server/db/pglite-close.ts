// Closing the embedded database without a query left behind. PGlite's close() does not wait for queries it has
// already admitted: one that passed its readiness check just before close() and runs after it spins forever inside
// the exited WebAssembly module (found as a test file whose background feed check outlived it and never ended; a
// stopping server would hang the same way at full CPU). So the client's entry points (the ones the Prisma adapter
// and our migrations use) admit work only while open, and close() waits for admitted work before closing.
import type { PGlite } from "@electric-sql/pglite";

/** How long close() waits for admitted queries and transactions before it closes anyway. */
const DRAIN_MS = 10_000;

export class DatabaseClosedError extends Error {
  constructor() {
    super("The embedded database is closed.");
    this.name = "DatabaseClosedError";
  }
}

/**
 * Wraps `pg`'s query, exec and transaction in place; returns the close that drains them first, and `admit` for any
 * other way in (the hot statements' driver, ./pglite-named.ts).
 */
export function guardPgliteClose(pg: PGlite): {
  close: () => Promise<void>;
  admit: <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => (...args: A) => Promise<R>;
} {
  let closing = false;
  const inFlight = new Set<Promise<unknown>>();
  const admit = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    function (this: unknown, ...args: A): Promise<R> {
      if (closing) return Promise.reject(new DatabaseClosedError());
      const p = fn.apply(pg, args);
      inFlight.add(p);
      const done = () => inFlight.delete(p);
      p.then(done, done);
      return p;
    };
  const target = pg as unknown as Record<"query" | "exec" | "transaction", (...args: unknown[]) => Promise<unknown>>;
  for (const name of ["query", "exec", "transaction"] as const) target[name] = admit(target[name]!.bind(pg));

  const close = async () => {
    closing = true;
    if (inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const settled = Promise.allSettled([...inFlight]);
      await Promise.race([settled, new Promise((r) => (timer = setTimeout(r, DRAIN_MS)))]);
      clearTimeout(timer);
    }
    await pg.close();
  };
  return { close, admit };
}
