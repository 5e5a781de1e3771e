// The one logger of the process (pino): request lines, background work and start-up all write here. JSON lines
// in production (LOG_LEVEL, default info); outside production the same records as short readable lines.
import { writeSync } from "node:fs";
import { Writable } from "node:stream";
import pino, { type Logger } from "pino";
import { nodeEnv, setting } from "../env";
import { outputGone } from "./output-gone.mjs";

const g = globalThis as unknown as { __serviceLogger?: Logger };
/** Each logger's twin without redaction (requestLogger), found by the logger whoever set it. */
const twins = new WeakMap<Logger, Logger>();

// Names a log record must never carry, at any depth pino looks (request headers and secrets).
const REDACT = [
  "authorization",
  "cookie",
  "apiKey",
  "api_key",
  "secret",
  "headers.authorization",
  "headers.cookie",
  'headers["x-api-key"]',
  "*.authorization",
  "*.cookie",
  "*.apiKey",
  "*.secret",
];

function readable(): Writable {
  return new Writable({
    write(chunk, _enc, done) {
      try {
        const { time, level, msg, pid: _pid, hostname: _host, ...rest } = JSON.parse(String(chunk));
        const name = pino.levels.labels[level] ?? String(level);
        const extra = Object.entries(rest)
          .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
          .join(" ");
        process.stdout.write(
          `${new Date(time).toISOString().slice(11, 23)} ${name.toUpperCase().padEnd(5)} ${msg ?? ""}${extra ? ` ${extra}` : ""}\n`,
        );
      } catch {
        process.stdout.write(chunk);
      }
      done();
    },
  });
}

function wantsReadable(): boolean {
  const format = setting("LOG_FORMAT");
  if (format) return format === "pretty";
  return nodeEnv() === "development";
}

/** Replaces the process's logger, writing to `destination` (a test capturing a run's lines uses this). */
export function useLogDestination(destination: Writable, level = "info"): Logger {
  g.__serviceLogger = build(level, destination);
  return g.__serviceLogger;
}

/**
 * The logger, with a twin on the same destination without redaction for the request line alone (requestLogger): its
 * fields are fixed and hold no secret, and redaction's walk of every record was a few percent of a refused request's
 * CPU.
 */
function build(level: string, destination?: Writable): Logger {
  const plain = { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime };
  const opts = { ...plain, redact: { paths: REDACT, censor: "[redacted]" } };
  const dest = destination ?? (wantsReadable() ? readable() : bufferedStdout());
  const main = pino(opts, dest);
  twins.set(main, pino(plain, dest));
  return main;
}

/** Bytes of records gathered before a write; fewer are written at the next tick of LOG_FLUSH_MS. */
export const LOG_BUFFER_BYTES = 4096;
/** The longest a record waits in the buffer. */
export const LOG_FLUSH_MS = 100;

/**
 * File descriptor 1, asynchronously and in batches: records gather until LOG_BUFFER_BYTES, or for at most
 * LOG_FLUSH_MS, and go in one write (made off the event loop). A write per record cost the server a hand-off to a
 * thread and the reader a wake-up for every request line, about a twentieth of the server's CPU per assessment
 * under load (docs/benchmarks.md); formatting a record still costs the loop its few microseconds. Not through
 * process.stdout, which on a pipe writes every line synchronously, and which the production server wraps
 * (scripts/log.mjs) for other libraries' stray lines. What is still buffered is written when the process exits
 * (and when its work is done); a process killed outright loses at most the last LOG_FLUSH_MS of records.
 */
function bufferedStdout(): pino.DestinationStream & { flush(cb?: (err?: Error) => void): void } {
  const out = pino.destination({ dest: 1, sync: false });
  let gathered = "";
  let closed = false;
  out.on("close", () => {
    closed = true;
  });
  // An output that has gone (its terminal closed: EIO; its reader left: EPIPE) takes no more records, as pino does
  // for EPIPE alone: sonic-boom's flushSync, which pino calls at exit, retried the failed write forever, at full CPU,
  // so a server whose terminal closed never finished its shutdown (scripts/log.mjs ignoreClosedOutput).
  // Any other error (a full disk, a bad descriptor) is a fault: thrown, as it was without this listener, so that the
  // process stops saying why (on stderr) instead of going on without its log; the output takes no more records either
  // way, or the exit would spin in flushSync the same.
  out.on("error", (err: NodeJS.ErrnoException) => {
    closed = true;
    const nothing = () => true;
    Object.assign(out, { write: nothing, flushSync: nothing, end: nothing });
    if (!outputGone(err)) throw err;
  });
  const flush = () => {
    if (gathered === "" || closed) return;
    out.write(gathered);
    gathered = "";
  };
  setInterval(flush, LOG_FLUSH_MS).unref();
  // A process whose work is done (a command, not the server) hands what is gathered to `out` while it still can.
  process.on("beforeExit", flush);
  // On exit, `out` is written out synchronously (also by pino's own handler), then what is gathered here, after it.
  process.on("exit", () => {
    try {
      if (!closed) out.flushSync();
      if (gathered !== "") writeSync(1, gathered);
    } catch {
      // Nowhere left to write to.
    }
    gathered = "";
  });
  return {
    write(record: string) {
      gathered += record;
      if (gathered.length >= LOG_BUFFER_BYTES) flush();
    },
    flush(cb) {
      flush();
      out.flush(cb);
    },
  };
}

export function logger(): Logger {
  if (!g.__serviceLogger) {
    const level = setting("LOG_LEVEL") ?? (nodeEnv() === "test" ? "silent" : "info");
    g.__serviceLogger = build(level);
  }
  return g.__serviceLogger;
}

/**
 * The request line's logger (server/operate/observe.ts recordRequest): the same level and destination as
 * logger(), without redaction. Only for records whose fields are known and safe (ids, method, route, status,
 * duration, a checked client id, an error code).
 */
export function requestLogger(): Logger {
  const main = logger();
  // A logger built by an earlier copy of this module (a development reload keeps globalThis) has no twin here.
  return twins.get(main) ?? main;
}

/** Masks an email address for logs: the domain and the first letter stay, the rest of the local part goes. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  return at > 0 ? `${email[0]}***${email.slice(at)}` : "***";
}
