// /v1/monitors over REST with an API key: CRUD with audit events, validation that writes nothing, the SSRF guard
// at creation (a loopback target refused unless configuration opens it), isolation between workspaces, and the
// plan rules: none on Free, a limit and a shortest interval per plan, pause beyond the limit after a downgrade
// (oldest kept; a paused one is never claimed by the scheduler) and resume on upgrade. Both stores: DATABASE_URL
// selects PostgreSQL.
import { describe, expect, it } from "vitest";
import { runMonitor } from "../../server/monitors/run";
import { claimDueMonitors } from "../../server/monitors/schedule";
import { setPlans } from "../../server/workspaces/workspaces";
import { createTestApp } from "../harness";
import { A, api, monitorDns } from "./helpers";

const app = await createTestApp();
await monitorDns({ "site.test": A(), "other.test": A(), "1.2-3": A() });

describe("/v1/monitors", () => {
  it("creates, reads, lists, changes and deletes monitors, with audit events", async () => {
    const ws = await app.seedWorkspace();
    const call = api(app, ws.apiKey);
    const created = await call("POST", "/v1/monitors", {
      name: "Shop",
      target: "site.test",
      checks: ["tls", { type: "dns", record_types: ["a", "MX"] }, "email_security"],
      interval: "6h",
    });
    expect(created.status).toBe(200);
    const m = created.body;
    expect(m).toMatchObject({
      name: "Shop",
      target: "site.test",
      checks: [{ type: "tls" }, { type: "dns", record_types: ["A", "MX"] }, { type: "email_security" }],
      interval: "6h",
      thresholds: { tls_expiry_days: [21, 7] },
      status: "active",
      units_per_run: 3,
      last_run_at: null,
      states: {},
      url: `http://localhost:3000/dashboard/monitors/${m.id}`,
    });
    expect(m.id).toMatch(/^mon_/);
    // The first run is within one interval of creation, not at once.
    const first = new Date(m.next_run_at).getTime() - new Date(m.created_at).getTime();
    expect(first).toBeGreaterThanOrEqual(0);
    expect(first).toBeLessThan(6 * 3_600_000);

    const second = (
      await call("POST", "/v1/monitors", { target: "https://other.test/health", checks: ["reachability"] })
    ).body;
    expect(second).toMatchObject({ name: null, target: "https://other.test/health", interval: "24h" });
    const page1 = await call("GET", "/v1/monitors?limit=1");
    expect(page1.body.items.map((x: { id: string }) => x.id)).toEqual([m.id]);
    const page2 = await call("GET", `/v1/monitors?limit=1&cursor=${page1.body.next_cursor}`);
    expect(page2.body).toMatchObject({ items: [{ id: second.id }], next_cursor: null });

    const changed = await call("PATCH", `/v1/monitors/${m.id}`, {
      name: "Shop front",
      thresholds: { tls_expiry_days: [30, 10] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      name: "Shop front",
      thresholds: { tls_expiry_days: [30, 10] },
      interval: "6h",
    });
    expect((await call("GET", `/v1/monitors/${m.id}`)).body.name).toBe("Shop front");
    expect((await call("DELETE", `/v1/monitors/${m.id}`)).body).toEqual({ id: m.id, deleted: true });
    expect((await call("GET", `/v1/monitors/${m.id}`)).status).toBe(404);

    const types = (await call("GET", "/v1/events?type=audit.monitor.&limit=100")).body.items.map(
      (e: { type: string }) => e.type,
    );
    expect(types.sort()).toEqual([
      "audit.monitor.created",
      "audit.monitor.created",
      "audit.monitor.deleted",
      "audit.monitor.updated",
    ]);
  });

  it.each([
    ["a target that is no host or URL", { target: "not a host", checks: ["tls"] }, "INVALID_REQUEST"],
    ["an unknown check", { target: "site.test", checks: ["whois"] }, "INVALID_REQUEST"],
    ["a check named twice", { target: "site.test", checks: ["tls", { type: "tls" }] }, "INVALID_REQUEST"],
    ["no checks", { target: "site.test", checks: [] }, "INVALID_REQUEST"],
    ["an unknown interval", { target: "site.test", checks: ["tls"], interval: "5m" }, "INVALID_REQUEST"],
    ["a dns check on an IP address", { target: "127.0.0.1", checks: ["dns"] }, "INVALID_REQUEST"],
    ["packages without packages", { target: "site.test", checks: ["packages"] }, "INVALID_REQUEST"],
    [
      "an option of another check",
      { target: "site.test", checks: [{ type: "tls", selectors: ["s1"] }] },
      "INVALID_REQUEST",
    ],
    ["a bad record type", { target: "site.test", checks: [{ type: "dns", record_types: ["ANY"] }] }, "INVALID_REQUEST"],
  ])("refuses %s with 400 and writes nothing", async (_what, body, code) => {
    const ws = await app.seedWorkspace();
    const res = await api(app, ws.apiKey)("POST", "/v1/monitors", body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(typeof res.body.error.message).toBe("string");
    expect(await app.db.monitor.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  // A URL parser or inet_aton reads these as addresses (134744072 and 0x08080808 are 8.8.8.8, 1.1 is 1.0.0.1, 010.8.8.8
  // is 8.8.8.8 in octal): a monitor stored them as the address they spell. They are refused as written, as the
  // /domain routes and /blocklists/check refuse them, never rewritten.
  it.each(["134744072", "0x08080808", "1.1", "010.8.8.8", "134744072:443", "https://134744072/", "http://1.1:8080/x"])(
    "refuses the address spelling %s with 400 INVALID_REQUEST in words, on create and on change, writing nothing",
    async (target) => {
      const ws = await app.seedWorkspace();
      const call = api(app, ws.apiKey);
      const res = await call("POST", "/v1/monitors", { target, checks: ["reachability"] });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
      expect(res.body.error.message).toMatch(/dotted quad|four decimal numbers/);
      expect(res.body.error.message).not.toMatch(/invalid_|Too small|Expected/);
      expect(await app.db.monitor.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
      const m = (await call("POST", "/v1/monitors", { target: "site.test", checks: ["reachability"] })).body;
      const changed = await call("PATCH", `/v1/monitors/${m.id}`, { target });
      expect(changed.status).toBe(400);
      expect(changed.body.error.code).toBe("INVALID_REQUEST");
      expect((await call("GET", `/v1/monitors/${m.id}`)).body.target).toBe("site.test");
      expect(await app.used(ws.workspaceId)).toBe(0);
    },
  );

  it.each(["0x7f.1", "2130706433", "http://0177.0.0.1:8080/"])(
    "refuses %s, a spelling of a loopback address, as every private target: 400 TARGET_FORBIDDEN, writing nothing",
    async (target) => {
      const ws = await app.seedWorkspace();
      delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS;
      try {
        const res = await api(app, ws.apiKey)("POST", "/v1/monitors", { target, checks: ["reachability"] });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("TARGET_FORBIDDEN");
      } finally {
        process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
      }
      // Where private targets are allowed, it is still no address as written: refused, never stored as 127.0.0.1.
      const allowed = await api(app, ws.apiKey)("POST", "/v1/monitors", { target, checks: ["reachability"] });
      expect(allowed.status).toBe(400);
      expect(allowed.body.error.message).toMatch(/dotted quad/);
      expect(await app.db.monitor.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
      expect(await app.used(ws.workspaceId)).toBe(0);
    },
  );

  it("keeps the usual spellings: a dotted quad, IPv6 text (RFC 5952 form) and names with a letter", async () => {
    const ws = await app.seedWorkspace();
    const call = api(app, ws.apiKey);
    for (const [target, stored] of [
      ["127.0.0.1", "127.0.0.1"],
      ["127.0.0.1:8443", "127.0.0.1:8443"],
      ["[::1]:443", "[::1]:443"],
      ["0:0:0:0:0:0:0:1", "::1"],
      ["Site.test.", "site.test"],
      ["http://127.0.0.1:8080/health", "http://127.0.0.1:8080/health"],
    ]) {
      const res = await call("POST", "/v1/monitors", { target, checks: ["reachability"] });
      expect(res.status, target).toBe(200);
      expect(res.body.target).toBe(stored);
    }
  });

  it("refuses a number of days given twice among the TLS thresholds, naming the field, on create and on change", async () => {
    const ws = await app.seedWorkspace();
    const call = api(app, ws.apiKey);
    const message = "thresholds.tls_expiry_days: 30 is given more than once; give each number of days once";
    const created = await call("POST", "/v1/monitors", {
      target: "site.test",
      checks: ["tls"],
      thresholds: { tls_expiry_days: [30, 30] },
    });
    expect(created.status).toBe(400);
    expect(created.body).toEqual({ error: { code: "INVALID_REQUEST", message } });
    expect(await app.db.monitor.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    const m = (await call("POST", "/v1/monitors", { target: "site.test", checks: ["tls"] })).body;
    const changed = await call("PATCH", `/v1/monitors/${m.id}`, { thresholds: { tls_expiry_days: [7, 30, 7, 30] } });
    expect(changed.status).toBe(400);
    expect(changed.body.error.message).toBe(
      "thresholds.tls_expiry_days: 7, 30 are given more than once; give each number of days once",
    );
    expect((await call("GET", `/v1/monitors/${m.id}`)).body.thresholds).toEqual({ tls_expiry_days: [21, 7] });
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("refuses a loopback target with 400 TARGET_FORBIDDEN unless configuration opens private targets", async () => {
    const ws = await app.seedWorkspace();
    const call = api(app, ws.apiKey);
    delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS;
    try {
      for (const target of ["127.0.0.1", "site.test", "http://127.0.0.1:8080/"]) {
        const res = await call("POST", "/v1/monitors", { target, checks: ["tls"] });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("TARGET_FORBIDDEN");
      }
      expect(await app.db.monitor.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    } finally {
      process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    }
    expect((await call("POST", "/v1/monitors", { target: "127.0.0.1", checks: ["tls"] })).status).toBe(200);
  });

  it("answers another workspace's monitor with 404 NOT_FOUND on every route", async () => {
    const a = await app.seedWorkspace();
    const b = await app.seedWorkspace();
    const m = (await api(app, a.apiKey)("POST", "/v1/monitors", { target: "site.test", checks: ["tls"] })).body;
    const other = api(app, b.apiKey);
    for (const [method, path, body] of [
      ["GET", `/v1/monitors/${m.id}`],
      ["PATCH", `/v1/monitors/${m.id}`, { name: "x" }],
      ["DELETE", `/v1/monitors/${m.id}`],
      ["POST", `/v1/monitors/${m.id}/run`],
      ["GET", `/v1/monitors/${m.id}/runs`],
      ["GET", `/v1/monitors/${m.id}/alerts`],
    ] as const) {
      const res = await other(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    expect((await other("GET", "/v1/monitors")).body.items).toEqual([]);
    expect((await api(app, a.apiKey)("GET", `/v1/monitors/${m.id}`)).body.name).toBeNull();
  });
});

describe("plans", () => {
  it("refuses Free and Email with 403 CAPABILITY_REQUIRED", async () => {
    for (const plans of [["free"], ["email"]]) {
      const ws = await app.seedWorkspace({ plans });
      const res = await api(app, ws.apiKey)("POST", "/v1/monitors", { target: "site.test", checks: ["tls"] });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("CAPABILITY_REQUIRED");
    }
  });

  it("holds 5 monitors at 24h at most often on Suite Starter: 403 for 1h, 409 MONITOR_LIMIT_REACHED for the sixth", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const call = api(app, ws.apiKey);
    const hourly = await call("POST", "/v1/monitors", { target: "site.test", checks: ["tls"], interval: "1h" });
    expect(hourly.status).toBe(403);
    expect(hourly.body.error.code).toBe("CAPABILITY_REQUIRED");
    expect(hourly.body.error.message).toContain("24h");
    for (let i = 0; i < 5; i++)
      expect(
        (await call("POST", "/v1/monitors", { target: "site.test", checks: ["tls"], interval: "24h" })).status,
      ).toBe(200);
    const sixth = await call("POST", "/v1/monitors", { target: "site.test", checks: ["tls"], interval: "7d" });
    expect(sixth.status).toBe(409);
    expect(sixth.body.error.code).toBe("MONITOR_LIMIT_REACHED");
    expect(await app.db.monitor.count({ where: { workspaceId: ws.workspaceId } })).toBe(5);
  });

  it("pauses the monitors beyond the limit after a downgrade (oldest kept) and resumes them on upgrade", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const call = api(app, ws.apiKey);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push(
        (await call("POST", "/v1/monitors", { name: `m${i}`, target: "site.test", checks: ["tls"], interval: "1h" }))
          .body.id,
      );
    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["suite_starter"] });
    const after = (await call("GET", "/v1/monitors?limit=10")).body.items;
    expect(after.map((m: { status: string }) => m.status)).toEqual([...Array(5).fill("active"), "paused", "paused"]);
    expect(after[6]).toMatchObject({ id: ids[6], next_run_at: null });
    // Kept monitors run no more often than Suite Starter allows.
    expect(after.slice(0, 5).map((m: { interval: string }) => m.interval)).toEqual(Array(5).fill("24h"));
    expect((await call("POST", `/v1/monitors/${ids[6]}/run`)).status).toBe(409);
    // Paused monitors are never claimed by the scheduler: a claim at a time when all seven are due takes the five
    // active ones and leaves the paused ones where they were.
    const rows = await app.db.monitor.findMany({
      where: { workspaceId: ws.workspaceId },
      orderBy: { createdAt: "asc" },
    });
    const paused = rows.filter((r) => r.status === "paused");
    expect(paused.map((r) => r.id)).toEqual([ids[5], ids[6]]);
    const allDue = new Date(Math.max(...rows.map((r) => r.nextRunAt.getTime())) + 1);
    const claimed = await claimDueMonitors(app.db, allDue, 1000);
    expect(claimed).toEqual(expect.arrayContaining(ids.slice(0, 5)));
    expect(claimed).not.toContain(ids[5]);
    expect(claimed).not.toContain(ids[6]);
    const pausedAfter = await app.db.monitor.findMany({ where: { id: { in: [ids[5]!, ids[6]!] } } });
    expect(pausedAfter.map((r) => r.nextRunAt.getTime()).sort()).toEqual(
      paused.map((r) => r.nextRunAt.getTime()).sort(),
    );
    expect((await runMonitor(app.db, ids[6]!, { now: allDue })).status).toBe("not_run");
    expect(await app.db.monitorRun.count({ where: { monitorId: { in: [ids[5]!, ids[6]!] } } })).toBe(0);
    const events = (await call("GET", "/v1/events?type=audit.monitor.paused&limit=10")).body.items;
    expect(events).toHaveLength(2);

    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["suite_business"] });
    const resumed = (await call("GET", "/v1/monitors?limit=10")).body.items;
    expect(resumed.every((m: { status: string }) => m.status === "active")).toBe(true);
    // A resumed monitor keeps its own interval; one raised by the downgrade is not lowered again by itself.
    expect([resumed[0].interval, resumed[6].interval]).toEqual(["24h", "1h"]);
    expect((await call("GET", "/v1/events?type=audit.monitor.resumed&limit=10")).body.items).toHaveLength(2);
  });

  it("gives the place a deleted monitor frees to the oldest monitor the downgrade paused", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const call = api(app, ws.apiKey);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await call("POST", "/v1/monitors", { name: `m${i}`, target: "site.test", checks: ["tls"] })).body.id);
    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["suite_starter"] });
    expect((await call("DELETE", `/v1/monitors/${ids[1]}`)).status).toBe(200);
    const after = (await call("GET", "/v1/monitors?limit=10")).body.items as { id: string; status: string }[];
    expect(after.map((m) => [m.id, m.status])).toEqual([
      [ids[0], "active"],
      [ids[2], "active"],
      [ids[3], "active"],
      [ids[4], "active"],
      [ids[5], "active"],
      [ids[6], "paused"],
    ]);
    expect((await call("GET", "/v1/events?type=audit.monitor.resumed")).body.items).toHaveLength(1);
    // Deleting a paused one frees nothing a running monitor needs: the rest stay as they are.
    expect((await call("DELETE", `/v1/monitors/${ids[6]}`)).status).toBe(200);
    const last = (await call("GET", "/v1/monitors?limit=10")).body.items as { status: string }[];
    expect(last.map((m) => m.status)).toEqual(Array(5).fill("active"));
  });
});

describe("a target stored under the rule of its day", () => {
  // "1.2-3", a name with no letter, was taken before targets were judged as written; refused as a new target now, it is
  // read as it was stored: its monitor is counted, runs and can be renamed (it threw in the run and read 0 units).
  it("keeps running, counting and renaming a stored target today's rule would refuse", async () => {
    const ws = await app.seedWorkspace();
    const call = api(app, ws.apiKey);
    expect((await call("POST", "/v1/monitors", { target: "1.2-3", checks: ["dns"] })).status).toBe(400);
    const m = (await call("POST", "/v1/monitors", { target: "site.test", checks: ["dns"] })).body;
    await app.db.monitor.update({ where: { id: m.id }, data: { target: "1.2-3" } });
    expect((await call("GET", `/v1/monitors/${m.id}`)).body).toMatchObject({ target: "1.2-3", units_per_run: 1 });
    const renamed = await call("PATCH", `/v1/monitors/${m.id}`, { name: "Legacy" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Legacy", target: "1.2-3" });
    const run = await call("POST", `/v1/monitors/${m.id}/run`);
    expect(run.status).toBe(200);
    expect(run.body.units).toBe(1);
    // A new target is judged as written.
    expect((await call("PATCH", `/v1/monitors/${m.id}`, { target: "4.5-6" })).status).toBe(400);
  });
});

describe("POST /v1/monitors/{id}/run", () => {
  it("is documented with what it charges, and its answer carries the quota headers of what it charged", async () => {
    const doc = (await app.request("GET", "/v1/openapi.json")).body;
    const op = doc.paths["/monitors/{id}/run"].post;
    // It reserves one unit per check: the document says so, not "unmetered".
    expect(op["x-service-cost"]).toMatch(/^1 unit per check/);
    expect(op.description).not.toContain("unmetered");
    expect(op.description).toContain("**Cost:** 1 unit per check");
    expect(Object.keys(op.responses["200"].headers)).toContain("X-Service-Quota-Used");

    const ws = await app.seedWorkspace();
    const call = api(app, ws.apiKey);
    const m = (await call("POST", "/v1/monitors", { target: "site.test", checks: ["dns", "blocklists"] })).body;
    const run = await call("POST", `/v1/monitors/${m.id}/run`);
    expect(run.status).toBe(200);
    const used = await app.used(ws.workspaceId);
    expect(used).toBe(run.body.units);
    expect(run.headers.get("x-service-quota-used")).toBe(String(used));
    expect(run.headers.get("x-service-quota-limit")).toBe("25000");
    expect(run.headers.get("x-service-quota-remaining")).toBe(String(25000 - used));
    expect(run.headers.get("x-service-quota-reset")).toMatch(/^\d{4}-\d{2}-01T00:00:00\.000Z$/);
  });

  it("charges the run to the key that asked for it, not to the dashboard", async () => {
    const ws = await app.seedWorkspace();
    const call = api(app, ws.apiKey);
    const m = (await call("POST", "/v1/monitors", { target: "site.test", checks: ["dns"] })).body;
    expect((await call("POST", `/v1/monitors/${m.id}/run`)).status).toBe(200);
    const rows = await app.db.usageLedger.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(rows.map((r) => [r.endpoint, r.apiKeyId])).toEqual([["monitor.run", ws.apiKeyId]]);
    const month = (await call("GET", "/v1/analytics/summary")).body.thisMonth;
    expect(month.keys).toEqual([expect.objectContaining({ key_id: ws.apiKeyId, units: 1 })]);
  });

  it("counts a run the schedule started under its own name, neither a key's nor the dashboard's", async () => {
    const ws = await app.seedWorkspace();
    const call = api(app, ws.apiKey);
    const m = (await call("POST", "/v1/monitors", { target: "site.test", checks: ["dns"] })).body;
    expect((await call("POST", `/v1/monitors/${m.id}/run`)).status).toBe(200);
    const scheduled = await runMonitor(app.db, m.id);
    expect(scheduled.status).toBe("completed");
    const rows = await app.db.usageLedger.findMany({
      where: { workspaceId: ws.workspaceId },
      orderBy: { createdAt: "asc" },
    });
    expect(rows.map((r) => [r.apiKeyId, r.userId])).toEqual([
      [ws.apiKeyId, null],
      [null, null],
    ]);
    const month = (await call("GET", "/v1/analytics/summary")).body.thisMonth;
    expect(month.keys).toEqual(
      expect.arrayContaining([
        { key_id: ws.apiKeyId, name: expect.any(String), requests: 1, units: 1 },
        { key_id: "scheduled", name: "Scheduled monitor runs", requests: 1, units: 1 },
      ]),
    );
    expect(month.keys).toHaveLength(2);
    const series = (await call("GET", "/v1/analytics/timeseries?days=1")).body;
    expect(series.keys).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: ws.apiKeyId, units: 1 }),
        expect.objectContaining({ key: "scheduled", name: "Scheduled monitor runs", prefix: null, units: 1 }),
      ]),
    );
    expect(series.keys).toHaveLength(2);
  });
});
