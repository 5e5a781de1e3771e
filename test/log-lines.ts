// The service's log lines as a test reads them: from now on every record the logger writes (server/operate/log.ts
// useLogDestination) is pushed to the array returned, one record per entry, until another destination is set.
import { Writable } from "node:stream";
import { logger, useLogDestination } from "../server/operate/log";

/** Sends the log's records to the returned array from now on, at `level` and above. */
export function captureLogLines(level = "info"): string[] {
  const lines: string[] = [];
  useLogDestination(
    new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    }),
    level,
  );
  return lines;
}

/** Drops the log's records from now on. */
export function silenceLogs(): void {
  useLogDestination(new Writable({ write: (_c, _e, done) => done() }), "silent");
}

/** Runs `f` with the log's records captured (captureLogLines), then puts back the logger that was current before. */
export async function withLogLines<T>(f: (lines: string[]) => Promise<T>, level = "info"): Promise<T> {
  const previous = logger();
  const lines = captureLogLines(level);
  try {
    return await f(lines);
  } finally {
    (globalThis as { __serviceLogger?: unknown }).__serviceLogger = previous;
  }
}
