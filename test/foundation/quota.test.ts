import { beforeAll, describe, expect, it } from "vitest";
import { adjustUsage } from "../../server/quota/adjust";
import { nextReset, periodStart } from "../../server/quota/period";
import { reserveUnitsGrouped } from "../../server/quota/grouped-reserve";
import { countingInsertStatements } from "../insert-statements";
import { readUsage, reserveUnits } from "../../server/quota/reserve";
import { createTestApp, type TestApp } from "../harness";
import { waitingBehind } from "../lock-waiters";
import { getDbKind, groupsInFlight } from "../../server/db/client";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe("atomic reservation", () => {
  it("60 parallel requests with 20 units left admit exactly 20 and refuse 40 with 402; ledger and counter agree", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"], usedUnits: 980 });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => app.request("GET", `/v1/ip/8.8.${i}.8/geo`, { key: ws.apiKey })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 402)).toHaveLength(40);
    for (const r of results.filter((x) => x.status === 402)) {
      expect(r.body).toEqual({ error: { code: "QUOTA_EXCEEDED", message: expect.any(String) } });
      expect(r.headers.get("x-service-quota-used")).toBeNull();
    }
    const usedHeaders = results
      .filter((r) => r.status === 200)
      .map((r) => Number(r.headers.get("x-service-quota-used")));
    expect(new Set(usedHeaders).size).toBe(20);
    expect(Math.max(...usedHeaders)).toBe(1000);
    expect(await app.used(ws.workspaceId)).toBe(1000);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(20);
  });

  it("says what the request needs, not that the allowance is exhausted, when some units are left", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const limit = (await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey })).headers.get(
      "x-service-quota-limit",
    );
    await app.db.usagePeriod.updateMany({ where: { workspaceId: ws.workspaceId }, data: { used: Number(limit) - 2 } });
    const r = await app.request("POST", "/v1/blocklists/check", {
      key: ws.apiKey,
      body: { targets: ["192.0.2.1", "192.0.2.2", "192.0.2.3"] },
    });
    expect(r.status).toBe(402);
    expect(r.body.error.message).toBe(
      `This request needs 3 lookup units, more than is left of the monthly allowance of ${limit}; it resets at the start of the next UTC month.`,
    );
    expect(await app.used(ws.workspaceId)).toBe(Number(limit) - 2);
  });

  // usage adjust --units -25 with 10 used recorded -25 while usage went to 0: the ledger no longer summed to it.
  it("an operator's correction records the change it made, so the ledger still sums to the usage", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const sum = async () =>
      (await app.db.usageLedger.aggregate({ where: { workspaceId: ws.workspaceId }, _sum: { units: true } }))._sum
        .units ?? 0;
    expect(await adjustUsage(app.db, { workspaceId: ws.workspaceId, units: -25, reason: "nothing to take" })).toBe(0);
    expect(await adjustUsage(app.db, { workspaceId: ws.workspaceId, units: 10, reason: "correction" })).toBe(10);
    expect(await adjustUsage(app.db, { workspaceId: ws.workspaceId, units: -25, reason: "goodwill" })).toBe(0);
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await sum()).toBe(0);
    const rows = await app.db.usageLedger.findMany({
      where: { workspaceId: ws.workspaceId },
      orderBy: { createdAt: "asc" },
      select: { units: true, reason: true },
    });
    expect(rows.map((r) => r.units).sort((a, b) => a - b)).toEqual([-10, 0, 10]);
  });

  it("refuses a reservation larger than what is left, all or nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"], usedUnits: 995 });
    const refused = await reserveUnits(app.db, {
      workspaceId: ws.workspaceId,
      units: 7,
      limit: 1000,
      requestId: "req_t1",
      endpoint: "test",
    });
    expect(refused).toBeNull();
    const admitted = await reserveUnits(app.db, {
      workspaceId: ws.workspaceId,
      units: 5,
      limit: 1000,
      requestId: "req_t2",
      endpoint: "test",
    });
    expect(admitted).toMatchObject({ used: 1000, remaining: 0, limit: 1000 });
    expect(await app.ledgerCount(ws.workspaceId)).toBe(1);
  });

  it("grouped: concurrent requests of one workspace each learn their exact running total, with one ledger row each", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"], usedUnits: 100 });
    const units = Array.from({ length: 30 }, (_, i) => 1 + (i % 3));
    // Count the statements that reserve (each upserts the period's row).
    const { statements, result: states } = await countingInsertStatements(app.db, "UsagePeriod", () =>
      Promise.all(
        units.map((n, i) =>
          reserveUnitsGrouped(app.db, {
            workspaceId: ws.workspaceId,
            units: n,
            limit: 1000,
            requestId: `req_g${i}`,
            endpoint: "test",
          }),
        ),
      ),
    );
    // The 30 reach the reservation in the same turn of the event loop and go as one statement (server/db/grouped.ts).
    expect(statements).toBe(1);
    const total = units.reduce((a, b) => a + b, 0);
    // Arrival order is call order: each request's `used` is 100 plus the units of every request up to and including it.
    let running = 100;
    states.forEach((q, i) => {
      running += units[i]!;
      expect(q).toMatchObject({ used: running, remaining: 1000 - running, limit: 1000 });
    });
    expect(await app.used(ws.workspaceId)).toBe(100 + total);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(30);
  });

  it("grouped: reservations with a read go two groups at once on PostgreSQL (one on the embedded store), never over-admit, and each learn a distinct total and their own read", async () => {
    // Reservations with a read alongside (an assessment's) may have two groups in flight on PostgreSQL
    // (server/db/client.ts groupsInFlight), one on the embedded store. 30 requests of 1 unit in six waves, one wave per
    // turn of the event loop, with 20 units left; each reads back its own value.
    const postgres = (await getDbKind()) === "postgresql";
    expect(groupsInFlight(app.db)).toBe(postgres ? 2 : 1);
    const echo = { name: "test_echo", row: `json_build_object('echo', r."read"->>0)`, also: {} };
    const ws = await app.seedWorkspace({ plans: ["free"], usedUnits: 980 });
    const pending: Promise<Awaited<ReturnType<typeof reserveUnitsGrouped>>>[] = [];
    const send = async () => {
      for (let wave = 0; wave < 6; wave++) {
        for (let i = 0; i < 5; i++)
          pending.push(
            reserveUnitsGrouped(app.db, {
              workspaceId: ws.workspaceId,
              units: 1,
              limit: 1000,
              requestId: `req_o${wave}_${i}`,
              endpoint: "test",
              read: { with: echo, values: [`${wave}.${i}`] },
            }),
          );
        await new Promise((r) => setImmediate(r));
      }
    };
    if (postgres) {
      // Another connection holds the period's row: the groups sent wait for it in the database, where they can be
      // counted. Exactly two wait (the other waves queue in the process), and still two a moment later. Counted: the
      // statements waiting, directly or behind one another, for the transaction that holds the row (`holder`).
      await app.db.$transaction(
        async (tx) => {
          const held = await tx.$queryRawUnsafe<unknown[]>(
            `SELECT 1 FROM "UsagePeriod" WHERE "workspaceId" = $1 FOR UPDATE`,
            ws.workspaceId,
          );
          expect(held).toHaveLength(1);
          const [{ pid: holder }] = await tx.$queryRawUnsafe<{ pid: number }[]>(`SELECT pg_backend_pid() AS pid`);
          await send();
          const until = Date.now() + 10_000;
          while ((await waitingBehind(app.db, holder!)) < 2 && Date.now() < until)
            await new Promise((r) => setTimeout(r, 20));
          expect(await waitingBehind(app.db, holder!)).toBe(2);
          await new Promise((r) => setTimeout(r, 200));
          expect(await waitingBehind(app.db, holder!)).toBe(2);
        },
        { maxWait: 10_000, timeout: 30_000 },
      );
    } else await send();
    const states = await Promise.all(pending);
    const used = states.flatMap((q) => (q && q !== "stale" ? [q.used] : []));
    states.forEach((q, n) => {
      if (q && q !== "stale") expect(q.read?.row).toEqual({ echo: `${Math.floor(n / 5)}.${n % 5}` });
    });
    expect(used).toHaveLength(20);
    expect([...used].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => 981 + i));
    expect(states.filter((q) => q === null)).toHaveLength(10);
    expect(await app.used(ws.workspaceId)).toBe(1000);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(20);
  });

  it("grouped: a group whose total does not fit fills what is left in arrival order and refuses the rest, leaving no trace", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"], usedUnits: 990 });
    const units = [4, 4, 4, 1, 1, 5, 1];
    const states = await Promise.all(
      units.map((n, i) =>
        reserveUnitsGrouped(app.db, {
          workspaceId: ws.workspaceId,
          units: n,
          limit: 1000,
          requestId: `req_f${i}`,
          endpoint: "test",
        }),
      ),
    );
    // 990 + 4 + 4 = 998; the third 4 does not fit, the two 1s do (1000); nothing else fits.
    expect(states.map((q) => (q === "stale" ? q : (q?.used ?? null)))).toEqual([994, 998, null, 999, 1000, null, null]);
    expect(await app.used(ws.workspaceId)).toBe(1000);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(4);
  });

  it("grouped: workspaces do not share a group, and a refused workspace does not hold up another", async () => {
    const full = await app.seedWorkspace({ plans: ["free"], usedUnits: 1000 });
    const open = await app.seedWorkspace({ plans: ["free"] });
    const [a, b, c, d] = await Promise.all([
      reserveUnitsGrouped(app.db, {
        workspaceId: full.workspaceId,
        units: 1,
        limit: 1000,
        requestId: "req_w1",
        endpoint: "test",
      }),
      reserveUnitsGrouped(app.db, {
        workspaceId: open.workspaceId,
        units: 1,
        limit: 1000,
        requestId: "req_w2",
        endpoint: "test",
      }),
      reserveUnitsGrouped(app.db, {
        workspaceId: full.workspaceId,
        units: 1,
        limit: 1000,
        requestId: "req_w3",
        endpoint: "test",
      }),
      reserveUnitsGrouped(app.db, {
        workspaceId: open.workspaceId,
        units: 1,
        limit: 1000,
        requestId: "req_w4",
        endpoint: "test",
      }),
    ]);
    expect([a, c]).toEqual([null, null]);
    expect([b, d].map((q) => (q === "stale" ? q : q?.used))).toEqual([1, 2]);
    expect(await app.ledgerCount(full.workspaceId)).toBe(0);
  });

  it("resets at the start of each UTC calendar month", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const lastMonth = new Date(Date.UTC(2026, 9, 31, 23, 59, 59));
    const thisMonth = new Date(Date.UTC(2026, 10, 1, 0, 0, 0));
    expect(
      await reserveUnits(app.db, {
        workspaceId: ws.workspaceId,
        units: 1000,
        limit: 1000,
        requestId: "req_a",
        endpoint: "t",
        now: lastMonth,
      }),
    ).not.toBeNull();
    expect(
      await reserveUnits(app.db, {
        workspaceId: ws.workspaceId,
        units: 1,
        limit: 1000,
        requestId: "req_b",
        endpoint: "t",
        now: lastMonth,
      }),
    ).toBeNull();
    const fresh = await reserveUnits(app.db, {
      workspaceId: ws.workspaceId,
      units: 1,
      limit: 1000,
      requestId: "req_c",
      endpoint: "t",
      now: thisMonth,
    });
    expect(fresh).toMatchObject({ used: 1, remaining: 999 });
    expect(fresh!.reset.toISOString()).toBe("2026-12-01T00:00:00.000Z");
    expect((await readUsage(app.db, ws.workspaceId, 1000, lastMonth)).used).toBe(1000);
  });

  it("computes period boundaries in UTC", () => {
    expect(periodStart(new Date("2026-12-31T23:30:00-05:00")).toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(nextReset(new Date("2026-12-15T12:00:00Z")).toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });

  it("shares one allowance among all active keys of a workspace", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const { createApiKey } = await import("../../server/keys/keys");
    const second = await createApiKey(app.db, { workspaceId: ws.workspaceId });
    await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey });
    const res = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: second.plaintext });
    expect(res.headers.get("x-service-quota-used")).toBe("2");
  });
});
