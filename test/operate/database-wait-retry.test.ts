// Start-up's wait for a PostgreSQL that cannot be reached (server/startup/database-wait.ts): an outage is tried again
// after a capped backoff with a log line per attempt, anything else fails start-up at once, and so does every failure
// of the embedded store (retrying could not help). The whole server doing it: test/operate/database-wait.test.ts.
import { afterEach, describe, expect, it } from "vitest";
import { StoreConnectError } from "../../server/db/outage-reason";
import { processState } from "../../server/operate/state";
import { retryDelayMs, untilDatabaseAnswers } from "../../server/startup/database-wait";
import { captureLogLines } from "../log-lines";

const lines = captureLogLines();
const refused = () =>
  new StoreConnectError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }));
const realUrl = process.env.DATABASE_URL;

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
