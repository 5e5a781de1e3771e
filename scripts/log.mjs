// The JSON logger of the plain-JavaScript start-up scripts (start.mjs, server.mjs, graceful-shutdown.mjs), so that
// everything the production server prints on stdout is one JSON record a line, in the same shape as the service's
// own logger (server/operate/log.ts: pino, `time` as ISO, `pid`, LOG_LEVEL). Once the service's logger exists in
// this process it is used instead.
import pino from "pino";
import { outputGone } from "../server/operate/output-gone.mjs";

let own = null;

const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal", "silent"];

/**
 * LOG_LEVEL as the settings registry reads it (any case, trimmed), else `info`: an invalid value is the server's
 * start-up check to refuse, naming the variable (server/env/operate.ts), not pino's to throw at the first line.
 */
function level() {
  const raw = (process.env.LOG_LEVEL ?? "").trim().toLowerCase();
  return LEVELS.includes(raw) ? raw : "info";
}

/** The service's logger when it is running in this process, else a pino logger of the same shape. */
export function scriptLogger() {
  if (globalThis.__serviceLogger) return globalThis.__serviceLogger;
  own ??= pino({
    level: level(),
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
  return own;
}

/**
 * Writes to an output that has gone are dropped. Unheard, each failed write was an uncaught error, and Next.js's report
 * of it (console.error) failed the same way: a server whose terminal closed spun on that, at full CPU, and never
 * drained (SIGHUP, scripts/graceful-shutdown.mjs). The service's logger does the same (server/operate/log.ts).
 */
export function ignoreClosedOutput() {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (err) => {
      if (!outputGone(err)) throw err;
    });
  }
}

/** Terminal escape sequences (colours, bold: `ESC [ 32 m`). */
const ANSI_ESCAPE = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * Lines that libraries print on stdout themselves (Next.js: "✓ Running next.config.ts took 72ms") become records
 * of this logger, so that stdout stays one JSON record a line. The service's logger writes to the file descriptor
 * directly (server/operate/log.ts) and never comes here; this logger's own records, which pino sends through
 * process.stdout once it has been replaced, are JSON lines and pass as they are, like any other JSON line.
 */
export function routeStrayOutput() {
  // Readable lines (LOG_FORMAT=pretty) are written through process.stdout on purpose: leave them alone.
  if (process.env.LOG_FORMAT === "pretty") return;
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (chunk, encoding, callback) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    for (const line of text.split("\n")) {
      // On a terminal Next.js colours its lines: the escape sequences are no part of the message.
      const trimmed = line.replace(ANSI_ESCAPE, "").trim();
      if (!trimmed) continue;
      if (trimmed.startsWith("{")) write(`${trimmed}\n`);
      else scriptLogger().info({ source: "next" }, trimmed);
    }
    if (typeof encoding === "function") encoding();
    else if (typeof callback === "function") callback();
    return true;
  };
}

/**
 * Next.js reports a failed start-up (server/startup/index.ts, run from instrumentation.ts) itself with console.error
 * and the whole stack ("Failed to prepare server Error: An error occurred while loading instrumentation hook: ..."),
 * before the clear message the server gives (scripts/server.mjs for an invalid setting, server/startup/index.ts for
 * any other failure), and again for every request that waited on the start-up. Those reports, recognised by the
 * error start-up failed with (the process state's `startupFailure`, or an error whose cause it is), become debug
 * records with the error, so its stack shows with LOG_LEVEL=debug; every other console.error is left alone.
 */
export function quietStartupFailureReports() {
  const error = console.error.bind(console);
  console.error = (...args) => {
    const failure = globalThis.__serviceProcessState?.startupFailure;
    const report =
      failure !== undefined &&
      args.find((a) => a === failure || (a !== null && typeof a === "object" && a.cause === failure));
    if (!report) return error(...args);
    scriptLogger().debug({ err: report }, "start-up failure as Next.js reported it");
  };
}
