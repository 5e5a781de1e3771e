// Start-up's wait for a PostgreSQL that cannot be reached (server/startup/database-wait.ts): an outage is tried again
// after a capped backoff with a log line per attempt, anything else fails start-up at once, and so does every failure
// of the embedded store (retrying could not help). The whole server doing it: test/operate/database-wait.test.ts.
import { createServer, type Server } from "node:net";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { markConnectFailures, StoreConnectError } from "../../server/db/outage-reason";
import { processState } from "../../server/operate/state";
import { retryDelayMs, untilDatabaseAnswers } from "../../server/startup/database-wait";
import { captureLogLines } from "../log-lines";

const lines = captureLogLines();
const refused = () =>
  new StoreConnectError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }));
const realUrl = process.env.DATABASE_URL;
const pgUrl =
  process.env.DATABASE_URL ?? process.env.SERVICE_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

/** One query through a pool whose connection failures are marked as the server's are (server/db/client.ts). */
async function queryOnce(connectionString: string): Promise<void> {
  const pool = new pg.Pool({ connectionString, connectionTimeoutMillis: 10_000 });
  markConnectFailures(pool);
  try {
    await pool.query("SELECT 1");
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/** A PostgreSQL stand-in on 127.0.0.1 that ends each session at its start with SQLSTATE `code`, as the real one does. */
async function refusingServer(code: string, message: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((socket) => {
    socket.once("data", () => {
      const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`);
      const head = Buffer.alloc(5);
      head.write("E", 0);
      head.writeInt32BE(fields.length + 4, 1);
      socket.end(Buffer.concat([head, fields]));
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `postgresql://postgres:wrong@127.0.0.1:${port}/test`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

afterEach(() => {
  if (realUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = realUrl;
  Object.assign(processState(), { waitingForDatabase: undefined, startupStep: undefined, shuttingDown: false });
  lines.length = 0;
});

describe("start-up waiting for the database", () => {
  it("waits 1 s, 2 s, 4 s ... and never more than 30 s between attempts", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50, 5000].map(retryDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000,
    ]);
  });

  it("tries the steps again while PostgreSQL refuses, logging each attempt, then goes on", async () => {
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:9/down";
    processState().startupStep = "opening the database and applying migrations";
    const waits: number[] = [];
    const seenWhileWaiting: (string | undefined)[] = [];
    let calls = 0;
    const result = await untilDatabaseAnswers(
      async () => {
        calls++;
        if (calls < 4) throw refused();
        return "opened";
      },
      async (ms) => {
        waits.push(ms);
        seenWhileWaiting.push(processState().waitingForDatabase);
      },
    );
    expect(result).toBe("opened");
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(seenWhileWaiting).toEqual(Array(3).fill("could not open a database connection (ECONNREFUSED)"));
    expect(processState().waitingForDatabase).toBeUndefined();
    const records = lines.map((l) => JSON.parse(l) as { level: number; msg: string; attempt?: number });
    const attempts = records.filter((r) => r.msg.startsWith("the database cannot be reached at start"));
    expect(attempts.map((r) => [r.level, r.attempt])).toEqual([
      [40, 1],
      [40, 2],
      [40, 3],
    ]);
    expect(attempts[0]!.msg).toBe(
      "the database cannot be reached at start (could not open a database connection (ECONNREFUSED)) while opening " +
        "the database and applying migrations; attempt 1 failed, trying again in 1 s",
    );
    expect(records.at(-1)!.msg).toBe("the database answers; start-up goes on");
  });

  it("fails at once on an error retrying cannot help, and on any failure of the embedded store", async () => {
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:9/down";
    const sql = Object.assign(new Error('relation "x" already exists'), { code: "42P07" });
    let calls = 0;
    const noWait = async () => undefined;
    await expect(untilDatabaseAnswers(async () => (calls++, Promise.reject(sql)), noWait)).rejects.toBe(sql);
    expect(calls).toBe(1);
    delete process.env.DATABASE_URL;
    const embedded = refused();
    await expect(untilDatabaseAnswers(async () => (calls++, Promise.reject(embedded)), noWait)).rejects.toBe(embedded);
    expect(calls).toBe(2);
  });

  it("fails at once on a connection setting waiting cannot mend: password, role, database, host name", async () => {
    // Classed as outages, each of these was retried for ever at warn level and /readyz never said "start-up failed".
    const password = await refusingServer("28P01", 'password authentication failed for user "postgres"');
    const missingDb = new URL(pgUrl);
    missingDb.pathname = `/no_such_database_${process.pid}`;
    const missingRole = new URL(pgUrl);
    missingRole.username = `no_such_role_${process.pid}`;
    const unresolvable = new URL(pgUrl);
    unresolvable.hostname = "no-such-host.invalid";
    try {
      for (const [url, code] of [
        [password.url, "28P01"],
        [missingDb.toString(), "3D000"],
        [missingRole.toString(), "28000"],
        [unresolvable.toString(), "ENOTFOUND"],
      ] as const) {
        process.env.DATABASE_URL = url;
        let calls = 0;
        const failure = await untilDatabaseAnswers(
          async () => (calls++, queryOnce(url)),
          async () => {
            throw new Error("waited for it");
          },
        ).catch((err: unknown) => err);
        expect({ code, calls, failure: String(failure) }).toEqual({
          code,
          calls: 1,
          failure: expect.stringContaining(`could not open a database connection (${code})`),
        });
      }
      expect(lines.filter((l) => l.includes("the database cannot be reached at start"))).toEqual([]);
    } finally {
      await password.close();
    }
  });

  it("waits for a server that cannot take connections yet (57P03), at error level once the wait lasts", async () => {
    const starting = await refusingServer("57P03", "the database system is starting up");
    try {
      process.env.DATABASE_URL = starting.url;
      let calls = 0;
      const result = await untilDatabaseAnswers(
        async () => {
          if (++calls <= 6) await queryOnce(starting.url);
          return "opened";
        },
        async () => undefined,
      );
      expect(result).toBe("opened");
      expect(calls).toBe(7);
      const attempts = lines
        .map((l) => JSON.parse(l) as { level: number; msg: string; attempt?: number; reason?: string })
        .filter((r) => r.msg.startsWith("the database cannot be reached at start"));
      expect(attempts.map((r) => [r.attempt, r.level])).toEqual([
        [1, 40],
        [2, 40],
        [3, 40],
        [4, 40],
        [5, 50],
        [6, 50],
      ]);
      expect(attempts[0]!.reason).toBe("could not open a database connection (57P03)");
    } finally {
      await starting.close();
    }
  });

  it("stops waiting when shutdown begins", async () => {
    process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:9/down";
    let calls = 0;
    await expect(
      untilDatabaseAnswers(
        async () => {
          calls++;
          throw refused();
        },
        async () => {
          processState().shuttingDown = true;
        },
      ),
    ).rejects.toThrow("shutdown began while start-up was waiting for the database");
    expect(calls).toBe(1);
  });
});
