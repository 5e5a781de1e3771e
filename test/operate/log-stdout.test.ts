// The production logger writes to file descriptor 1 in batches (server/operate/log.ts): records spaced in time go
// together in a few writes instead of one write (and one wake-up of the reader) each, a lone record still reaches
// the reader within the flush interval, and nothing is lost when the process exits or ends by itself.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOG_FLUSH_MS } from "../../server/operate/log";

// Nothing here, nor any process this file starts, opens a database: the same run whatever DATABASE_URL says, so CI
// runs it once, not again on PostgreSQL (.ci/store-tests.mjs).
delete process.env.DATABASE_URL;

interface Run {
  /** Each chunk as the pipe delivered it, with the milliseconds since the child started. */
  chunks: { at: number; text: string }[];
  code: number | null;
}

/** Runs the child in `mode`; `stop(run)` may end it early (it is killed when it returns true). */
function run(mode: string, stop?: (r: Run) => boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "log-stdout-child.ts"), mode], {
      env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", LOG_FORMAT: "json" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const r: Run = { chunks: [], code: null };
    child.stdout.on("data", (b: Buffer) => {
      r.chunks.push({ at: Date.now() - started, text: b.toString() });
      if (stop?.(r)) child.kill("SIGKILL");
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ ...r, code }));
  });
}

const records = (r: Run, msg: string) =>
  r.chunks
    .map((c) => c.text)
    .join("")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: string; n?: number })
    .filter((l) => l.msg === msg);

describe("the production logger on a pipe", () => {
  it("writes records spaced in time together, a few writes for sixty records", async () => {
    const r = await run("spaced");
    expect(r.code).toBe(0);
    expect(records(r, "spaced").map((l) => l.n)).toEqual(Array.from({ length: 60 }, (_, n) => n));
    // One write per record would be sixty chunks; gathered for LOG_FLUSH_MS, 300 ms of records take a handful.
    expect(r.chunks.length).toBeLessThanOrEqual(12);
  });

  it("hands a lone record to the reader within the flush interval, while the process goes on", async () => {
    const r = await run("lone", (got) => records(got, "lone").length === 1);
    // Killed by the test once the record arrived: it came while the process was alive and idle.
    expect(r.code).toBeNull();
    expect(records(r, "lone")).toHaveLength(1);
    expect(LOG_FLUSH_MS).toBeLessThanOrEqual(250);
  });

  it("loses nothing when the process exits at once after logging", async () => {
    const r = await run("exit");
    expect(r.code).toBe(0);
    expect(records(r, "exit").map((l) => l.n)).toEqual(Array.from({ length: 500 }, (_, n) => n));
  });

  it("loses nothing when the process ends by itself", async () => {
    const r = await run("done");
    expect(r.code).toBe(0);
    expect(records(r, "done").map((l) => l.n)).toEqual([0, 1, 2]);
  });
});

describe("the production logger on an output that fails", () => {
  it("stops the process saying why on a write error other than a closed output (a full disk), without spinning", async () => {
    // Its error listener dropped every error, not only a closed output's (EIO, EPIPE): on /dev/full (ENOSPC) the
    // process lost its log without a word, and at exit sonic-boom's flushSync retried the failed write forever.
    const { openSync, closeSync } = await import("node:fs");
    const full = openSync("/dev/full", "w");
    try {
      const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "log-stdout-child.ts"), "done"], {
        env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", LOG_FORMAT: "json" },
        stdio: ["ignore", full, "pipe"],
      });
      let err = "";
      child.stderr!.on("data", (c) => (err += c));
      const code = await new Promise<number | null>((r) => {
        const t = setTimeout(() => {
          child.kill("SIGKILL");
          r(null);
        }, 30_000);
        child.on("close", (c) => {
          clearTimeout(t);
          r(c);
        });
      });
      expect({ code, says: /ENOSPC/.test(err) }).toEqual({ code: 1, says: true });
    } finally {
      closeSync(full);
    }
  }, 60_000);
});
