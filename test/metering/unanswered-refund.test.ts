// What we fail to answer is given back (issue 42, item 0; DESIGN "Charging"): an admitted request answered 503 gives
// back all its units, and a batch gives back the units of the targets it could not answer, each as a ledger row of
// negative units with the reason. Usage, the answer's quota headers, the month's usage by endpoint and the request's
// lookup history entry agree. Upstreams are real servers on 127.0.0.1: OSV on a port that refuses connections, a DNS
// server that fails the blocklist queries of one address.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { registerBulkProcedures } from "../../server/api/bulk-procedures";
import { drainBulkItems } from "../../server/bulk/worker";
import { unansweredTargets } from "../../server/api/routers/blocklists/shared";
import { flushLookupHistory } from "../../server/history/history";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";
import { createTestApp } from "../harness";
import { freePort } from "../operate/server-process";
import { useFakePackageSources } from "../vulnerabilities/fake-sources";

const sources = useFakePackageSources();
const app = await createTestApp();
const lock = readFileSync(path.join(__dirname, "../vulnerabilities/scan-fixtures/package-lock.json"), "utf8");
const SCAN_PACKAGES = 5;
// The blocklist queries of this address fail (SERVFAIL from every list); every other address is not listed.
const UNANSWERED_IP = "203.0.113.1";
const UNANSWERED_PREFIX = `${UNANSWERED_IP.split(".").reverse().join(".")}.`;

let dns: FakeDnsServer;
let refusingOsv = "";
beforeAll(async () => {
  process.env.SERVICE_BULK_WORKER = "0";
  registerBulkProcedures();
  dns = await startFakeDnsServer({ handler: (name) => (name.startsWith(UNANSWERED_PREFIX) ? "SERVFAIL" : undefined) });
  process.env.SERVICE_DNS_SERVERS = dns.address;
  // A port nothing listens on: every connection to OSV is refused.
  refusingOsv = `http://127.0.0.1:${await freePort()}/osv`;
});
afterAll(() => dns.close());

/** Runs `work` with OSV refusing connections. */
async function withOsvRefusing<T>(work: () => Promise<T>): Promise<T> {
  process.env.SERVICE_OSV_API_URL = refusingOsv;
  try {
    return await work();
  } finally {
    process.env.SERVICE_OSV_API_URL = sources.current.env.SERVICE_OSV_API_URL;
  }
}

const ledger = (workspaceId: string) =>
  app.db.usageLedger.findMany({
    where: { workspaceId, endpoint: { not: "admin.usage.adjust" } },
    orderBy: [{ createdAt: "asc" }, { units: "desc" }],
  });

async function history(workspaceId: string) {
  await flushLookupHistory();
  return app.db.lookupHistory.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" } });
}

/** This month's units of `endpoint` as GET /v1/analytics/summary reports them (`thisMonth`). */
async function monthUnits(apiKey: string, endpoint: string): Promise<number | undefined> {
  const res = await app.request("GET", "/v1/analytics/summary", { key: apiKey });
  expect(res.status).toBe(200);
  return res.body.thisMonth.endpoints.find((e: { endpoint: string }) => e.endpoint === endpoint)?.units;
}

/** The request was charged `units` and gave them all back, in one pair of ledger rows naming why. */
async function expectAllGivenBack(workspaceId: string, endpoint: string, units: number, why: RegExp) {
  const rows = await ledger(workspaceId);
  expect(rows.map((r) => [r.endpoint, r.units])).toEqual([
    [endpoint, units],
    [endpoint, -units],
  ]);
  expect(rows[1]!.requestId).toBe(rows[0]!.requestId);
  expect(rows[1]!.reason).toMatch(/^Not answered \(503 UPSTREAM_UNAVAILABLE\): /);
  expect(rows[1]!.reason).toMatch(why);
  const entries = await history(workspaceId);
  expect(entries).toEqual([
    expect.objectContaining({
      requestId: rows[0]!.requestId,
      endpoint,
      units: 0,
      status: 503,
      code: "UPSTREAM_UNAVAILABLE",
      summary: { refunded_units: units, refund_reason: rows[1]!.reason },
    }),
  ]);
}

describe("a 503 gives back all its units", () => {
  it("a lockfile scan through the REST API while OSV refuses connections: 503, usage unchanged", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"], usedUnits: 18 });
    const res = await withOsvRefusing(() =>
      app.request("POST", "/v1/vulnerabilities/scan", {
        key: ws.apiKey,
        body: lock,
        headers: { "Content-Type": "text/plain" },
      }),
    );
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(res.headers.get("retry-after")).toBeTruthy();
    expect(await app.used(ws.workspaceId)).toBe(18);
    await expectAllGivenBack(ws.workspaceId, "vulnerabilities.scan", SCAN_PACKAGES, /OSV advisory database/);
    expect(await monthUnits(ws.apiKey, "vulnerabilities.scan")).toBe(0);
    // The next lookup's quota headers start from the 18 units used before the scan.
    const next = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey });
    expect(next.headers.get("x-service-quota-used")).toBe("19");
  });

  it("a refunded request counts once in every analytics figure: summary endpoints, daily and thisMonth, and timeseries", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const scan = () =>
      app.request("POST", "/v1/vulnerabilities/scan", {
        key: ws.apiKey,
        body: lock,
        headers: { "Content-Type": "text/plain" },
      });
    expect((await withOsvRefusing(scan)).status).toBe(503);
    expect((await scan()).status).toBe(200);
    // Two requests: the refunded one (a charge row and its refund row) and the answered one.
    expect((await ledger(ws.workspaceId)).map((r) => r.units)).toEqual([SCAN_PACKAGES, -SCAN_PACKAGES, SCAN_PACKAGES]);
    const both = { endpoint: "vulnerabilities.scan", requests: 2, units: SCAN_PACKAGES };
    const summary = (await app.request("GET", "/v1/analytics/summary", { key: ws.apiKey })).body;
    expect(summary.endpoints).toEqual([both]);
    const sum = (days: { requests: number; units: number }[]) =>
      days.reduce((t, d) => ({ requests: t.requests + d.requests, units: t.units + d.units }), {
        requests: 0,
        units: 0,
      });
    expect(sum(summary.daily)).toEqual({ requests: 2, units: SCAN_PACKAGES });
    expect(summary.thisMonth.endpoints).toEqual([both]);
    expect(summary.thisMonth.keys.map((k: any) => [k.key_id, k.requests, k.units])).toEqual([
      [ws.apiKeyId, 2, SCAN_PACKAGES],
    ]);
    const series = (await app.request("GET", "/v1/analytics/timeseries?days=2", { key: ws.apiKey })).body;
    expect(series.endpoints).toEqual([both]);
    expect(series.totals).toMatchObject({ requests: 2, units: SCAN_PACKAGES });
    expect(series.keys.map((k: any) => [k.key, k.requests, k.units])).toEqual([[ws.apiKeyId, 2, SCAN_PACKAGES]]);
  });

  it("the same scan from the dashboard (tRPC door): 503, usage unchanged", async () => {
    const u = await ensureUser(app.db, { email: `scan-${Math.random().toString(36).slice(2, 8)}@refund.test` });
    const { workspaceId } = await createWorkspace(app.db, {
      name: "dashboard scan",
      plans: ["suite_business"],
      ownerEmail: u.email,
      ownerUserId: u.id,
    });
    const origin = "http://127.0.0.1:3000";
    const res = await withOsvRefusing(() =>
      handleDashboardRequest(
        new Request(`${origin}/api/trpc/vulnerabilities.scan`, {
          method: "POST",
          headers: { "content-type": "application/json", origin, "x-service-workspace": workspaceId },
          body: JSON.stringify({ lockfile: lock }),
        }),
        async () => ({ userId: u.id, email: u.email, name: null }),
      ),
    );
    expect(res.status).toBe(503);
    expect((await res.json()).error.data.appCode).toBe("UPSTREAM_UNAVAILABLE");
    expect(await app.used(workspaceId)).toBe(0);
    await expectAllGivenBack(workspaceId, "vulnerabilities.scan", SCAN_PACKAGES, /OSV advisory database/);
  });

  it.each([
    ["npm report", "/v1/vulnerabilities/npm/jquery/", "vulnerabilities.npm"],
    ["package report", "/v1/vulnerabilities/packages/npm/jquery/", "vulnerabilities.package"],
  ])("a single %s while OSV refuses connections: 503, usage unchanged", async (_name, url, endpoint) => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"], usedUnits: 3 });
    const res = await withOsvRefusing(() => app.request("GET", url, { key: ws.apiKey }));
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(await app.used(ws.workspaceId)).toBe(3);
    const recorded = (await ledger(ws.workspaceId))[0]!.endpoint;
    expect(recorded).toBe(endpoint);
    await expectAllGivenBack(ws.workspaceId, recorded, 1, /OSV|advisor/i);
  });

  it("a provider's not found is an answer: 404 PACKAGE_NOT_FOUND after admission counts, and nothing is given back", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await app.request("GET", "/v1/vulnerabilities/npm/does-not-exist/", { key: ws.apiKey });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("PACKAGE_NOT_FOUND");
    expect(await app.used(ws.workspaceId)).toBe(1);
    expect((await ledger(ws.workspaceId)).map((r) => r.units)).toEqual([1]);
  });

  it("POST /v1/assess (the plain door) that fails after admission: 503, its unit given back", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    // The database refuses the assessment's write as a server shutting down would (SQLSTATE 57P01): an outage
    // after the reservation, while the refund's own statement still goes through.
    const marker = "failover@refund.test";
    await app.db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION refund_test_failover() RETURNS trigger AS $$
      BEGIN RAISE EXCEPTION 'terminating connection due to administrator command' USING ERRCODE = '57P01'; END;
      $$ LANGUAGE plpgsql`);
    await app.db.$executeRawUnsafe(
      `CREATE TRIGGER refund_test_failover BEFORE INSERT ON "Event" FOR EACH ROW WHEN (NEW."email" = '${marker}') EXECUTE FUNCTION refund_test_failover()`,
    );
    try {
      const res = await app.request("POST", "/v1/assess", {
        key: ws.apiKey,
        body: { event: "login", ip: "8.8.8.8", email: marker },
      });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    } finally {
      await app.db.$executeRawUnsafe(`DROP TRIGGER refund_test_failover ON "Event"`);
    }
    expect(await app.used(ws.workspaceId)).toBe(0);
    await expectAllGivenBack(ws.workspaceId, "assess", 1, /database/);
  });
});

describe("a batch gives back the targets it could not answer", () => {
  it("POST /v1/blocklists/check: the target no list answered for is given back, the quota headers count without it", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"], usedUnits: 10 });
    const res = await app.request("POST", "/v1/blocklists/check", {
      key: ws.apiKey,
      body: { targets: ["192.0.2.7", UNANSWERED_IP, "192.0.2.8"] },
    });
    expect(res.status).toBe(200);
    const byTarget = Object.fromEntries(res.body.results.map((r: any) => [r.target, r]));
    expect(byTarget[UNANSWERED_IP].lists.every((l: any) => l.status === "unavailable")).toBe(true);
    expect(byTarget["192.0.2.7"].status).toBe("not_listed");
    expect(res.headers.get("x-service-quota-used")).toBe("12");
    expect(await app.used(ws.workspaceId)).toBe(12);
    const rows = await ledger(ws.workspaceId);
    expect(rows.map((r) => r.units)).toEqual([3, -1]);
    expect(rows[1]!.reason).toContain(UNANSWERED_IP);
    expect(rows[1]!.requestId).toBe(rows[0]!.requestId);
    const [entry] = await history(ws.workspaceId);
    expect(entry).toMatchObject({ units: 2, status: 200, summary: { refunded_units: 1 } });
    expect(await monthUnits(ws.apiKey, "blocklists.check")).toBe(2);
  });

  it("POST /v1/cidr/check: an address no blocklist answered for is given back", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await app.request("POST", "/v1/cidr/check", { key: ws.apiKey, body: { cidr: "203.0.113.0/31" } });
    expect(res.status).toBe(200);
    expect(res.body.units).toBe(2);
    expect(res.headers.get("x-service-quota-used")).toBe("1");
    expect(await app.used(ws.workspaceId)).toBe(1);
    expect((await ledger(ws.workspaceId)).map((r) => r.units)).toEqual([2, -1]);
  });

  it("names what it gives back in plain words, one or several (the reason is the history entry's refund_reason)", () => {
    const down = (target: string) => ({ target, lists: [{ status: "unavailable" }] }) as any;
    expect(unansweredTargets([down("203.0.113.0"), down("203.0.113.1")], "address")?.reason).toBe(
      "2 addresses not answered: no blocklist answered in time for 203.0.113.0, 203.0.113.1.",
    );
    expect(unansweredTargets([down("203.0.113.0")], "address")?.reason).toMatch(/^1 address not answered: /);
    expect(unansweredTargets([down("a.test"), down("b.test")], "target")?.reason).toMatch(/^2 targets not answered: /);
  });

  it("a bulk job gives back the items that were not answered and the unanswered addresses of a range", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const created = await app.request("POST", "/v1/jobs", {
      key: ws.apiKey,
      body: { kind: "auto", targets: ["8.8.8.8", "pkg:npm/jquery@3.4.1", "203.0.113.0/31"] },
    });
    expect(created.status).toBe(202);
    expect(created.body.units).toMatchObject({ reserved: 4, refunded: 0 });
    await withOsvRefusing(() => drainBulkItems(app.db));
    const job = await app.request("GET", `/v1/jobs/${created.body.id}`, { key: ws.apiKey });
    const byTarget = Object.fromEntries(job.body.items.map((i: any) => [i.target, i]));
    expect(byTarget["8.8.8.8"]).toMatchObject({ status: "succeeded", units: 1, refunded: false, refunded_units: 0 });
    expect(byTarget["pkg:npm/jquery@3.4.1"]).toMatchObject({
      status: "failed",
      units: 1,
      refunded: true,
      refunded_units: 1,
      error: { code: "UPSTREAM_UNAVAILABLE" },
    });
    // A range gives back only its unanswered address, and says how many.
    expect(byTarget["203.0.113.0/31"]).toMatchObject({
      status: "succeeded",
      units: 2,
      refunded: true,
      refunded_units: 1,
      summary: { incomplete: 1 },
    });
    const csv = await app.request("GET", `/v1/jobs/${created.body.id}/results.csv`, { key: ws.apiKey });
    const header = csv.text.split("\r\n")[0]!.split(",");
    const row = csv.text
      .split("\r\n")
      .find((l: string) => l.includes("203.0.113.0/31"))!
      .split(",");
    expect([row[header.indexOf("refunded")], row[header.indexOf("refunded_units")]]).toEqual(["true", "1"]);
    expect(job.body.units).toEqual({ reserved: 4, refunded: 2, charged: 2 });
    expect(await app.used(ws.workspaceId)).toBe(2);
    const rows = await ledger(ws.workspaceId);
    expect(rows.map((r) => [r.endpoint, r.units])).toEqual([
      ["bulk.job", 4],
      ["bulk.refund", -1],
      ["bulk.refund", -1],
    ]);
    expect(rows.map((r) => r.reason).join("\n")).toMatch(/Not answered \(503 UPSTREAM_UNAVAILABLE\)/);
    expect(rows.map((r) => r.reason).join("\n")).toContain(UNANSWERED_IP);
    // Each item is a lookup history entry with its units net of what it gave back: together, the units used.
    const entries = await history(ws.workspaceId);
    expect(entries.reduce((n, e) => n + (e.units ?? 0), 0)).toBe(2);
    expect(await monthUnits(ws.apiKey, "bulk.job")).toBe(2);
  });
});
