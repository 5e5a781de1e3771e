// The one logger of the process (pino): request lines, background work and start-up all write here. JSON lines
// in production (LOG_LEVEL, default info); outside production the same records as short readable lines.
import { Writable } from "node:stream";
import pino, { type Logger } from "pino";
import { nodeEnv, setting } from "../env";

const g = globalThis as unknown as { __serviceLogger?: Logger };

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

function build(level: string, destination?: Writable): Logger {
  const opts = {
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT, censor: "[redacted]" },
  };
  if (destination) return pino(opts, destination);
  if (wantsReadable()) return pino(opts, readable());
  // Straight to file descriptor 1, asynchronously: a record is written at once when no write is in flight, and the
  // records that come meanwhile go together in the next write (one system call for many request lines under load,
  // made off the event loop; formatting a record still costs the loop its few microseconds). Not through
  // process.stdout, which on a pipe writes every line synchronously, and which the production server wraps
  // (scripts/log.mjs) for other libraries' stray lines. What is still buffered is written when the process exits.
  return pino(opts, pino.destination({ dest: 1, sync: false }));
}

export function logger(): Logger {
  if (!g.__serviceLogger) {
    const level = setting("LOG_LEVEL") ?? (nodeEnv() === "test" ? "silent" : "info");
    g.__serviceLogger = build(level);
  }
  return g.__serviceLogger;
}

/** Masks an email address for logs: the domain and the first letter stay, the rest of the local part goes. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  return at > 0 ? `${email[0]}***${email.slice(at)}` : "***";
}
