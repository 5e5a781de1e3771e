// Units reconcile with lookup history: every charged request is an entry with its units and outcome (status code),
// failed lookups (0 units: what was not answered is given back), report saves, bulk job items and a CIDR check's
// units included, so the month's entries add up to X-Service-Quota-Used. Real database, a fake DNS server and a closed port as a dead upstream.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainBulkItems } from "../../server/bulk/worker";
import { flushLookupHistory } from "../../server/history/history";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { call } from "../dashboard/call";
import { startAppWithFakeDns } from "../fakes/app-with-dns";
import type { FakeDnsServer } from "../fakes/dns-server";
import type { TestApp } from "../harness";

let app: TestApp;
let dns: FakeDnsServer;
const env = { ...process.env };
beforeAll(async () => {
  process.env.SERVICE_BULK_WORKER = "0";
  // Nothing listens on port 9 of 127.0.0.1: certificate transparency is down, so the lookup fails after admission.
  process.env.SERVICE_CT_URL = "http://127.0.0.1:9";
  process.env.SERVICE_CT_TIMEOUT_MS = "1500";
  ({ app, dns } = await startAppWithFakeDns({ "acme.test": [{ type: "A", data: "192.0.2.10" }] }));
});
afterAll(async () => {
  process.env = env;
  await dns.close();
});

async function history(key: string) {
  await flushLookupHistory();
  const r = await app.request("GET", "/v1/lookups/history?limit=100", { key });
  expect(r.status).toBe(200);
  return r.body.items as {
    endpoint: string;
    target: string;
    units: number;
    status: number;
    code: string | null;
    summary: Record<string, unknown>;
  }[];
}

describe("lookup history reconciles with the units used", () => {
  it("has one entry per charged request, failed ones included, whose units add up to the quota used", async () => {
    const u = await ensureUser(app.db, { email: "reconcile@history.test" });
    const ws = await createWorkspace(app.db, {
      name: "reconcile",
      plans: ["suite_business"],
      ownerEmail: u.email,
      ownerUserId: u.id,
    });
    const key = ws.apiKey;
    const geo = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key });
    expect(geo.status).toBe(200);
    const failed = await app.request("GET", "/v1/domain/never-seen-reconcile.com/subdomains", { key });
    expect(failed.status).toBe(503);
    // Admitted, not answered: its unit went back.
    expect(await app.used(ws.workspaceId)).toBe(1);
    const cidr = await app.request("POST", "/v1/cidr/check", { key, body: { cidr: "203.0.113.0/30" } });
    expect(cidr.headers.get("x-service-quota-used")).toBe("5");
    const seat = { user: { userId: u.id, email: u.email, name: null }, workspaceId: ws.workspaceId };
    const saved = await call(seat, "reports.create", { title: "Checkout 42", report: { score: 80 } }, "mutation");
    expect(saved.status).toBe(200);
    const job = await app.request("POST", "/v1/jobs", { key, body: { kind: "ip", targets: ["8.8.8.8", "1.1.1.1"] } });
    expect(job.status).toBeLessThan(300);
    await drainBulkItems(app.db);
    const last = await app.request("GET", "/v1/ip/1.1.1.1/geo", { key });
    const used = Number(last.headers.get("x-service-quota-used"));
    expect(used).toBe(9);

    const items = await history(key);
    expect(items.reduce((n, i) => n + i.units, 0)).toBe(used);
    const byEndpoint = (e: string) => items.filter((i) => i.endpoint === e);
    expect(byEndpoint("domain.subdomains")).toMatchObject([
      {
        target: "never-seen-reconcile.com",
        units: 0,
        status: 503,
        code: "UPSTREAM_UNAVAILABLE",
        summary: {
          refunded_units: 1,
          refund_reason: expect.stringContaining("Not answered (503 UPSTREAM_UNAVAILABLE)"),
        },
      },
    ]);
    expect(byEndpoint("cidr.check")).toMatchObject([{ target: "203.0.113.0/30", units: 4, status: cidr.status }]);
    expect(byEndpoint("account.reports.create")).toMatchObject([{ target: "Checkout 42", units: 1, status: 200 }]);
    expect(byEndpoint("ip.geo")).toHaveLength(2);
    // Usage per key and per endpoint this month: the key's units, and the dashboard's report save.
    const summary = await app.request("GET", "/v1/analytics/summary", { key });
    expect(summary.status).toBe(200);
    const month = summary.body.thisMonth;
    expect(month.keys.reduce((n: number, k: { units: number }) => n + k.units, 0)).toBe(used);
    expect(month.keys).toContainEqual({ key_id: null, name: "Dashboard", requests: 1, units: 1 });
    expect(month.keys.find((k: { key_id: string | null }) => k.key_id !== null)).toMatchObject({ units: 8 });
    expect(month.endpoints).toContainEqual({ endpoint: "cidr.check", requests: 1, units: 4 });
    expect(month.endpoints).toContainEqual({ endpoint: "bulk.job", requests: 1, units: 2 });
    // The bulk job's two items are entries of their own, one unit each.
    expect(items.filter((i) => i.endpoint.startsWith("ip.") && i.endpoint !== "ip.geo")).toMatchObject([
      { units: 1, status: 200 },
      { units: 1, status: 200 },
    ]);
  });

  it("writes nothing for a refused request (no unit was charged)", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const bad = await app.request("GET", "/v1/ip/not-an-ip/geo", { key: ws.apiKey });
    expect(bad.status).toBe(400);
    expect(await history(ws.apiKey)).toEqual([]);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});
