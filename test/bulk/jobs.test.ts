// Bulk jobs through the REST API: admission (bulk entitlement, 100 targets, per-line validation, one atomic
// reservation), items run by the worker through the same lookups as /v1 against a local fake DNS server, a crash
// in the middle, two workers sharing a job, cancel with refund, CSV, and isolation between workspaces.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planJob } from "../../server/bulk/jobs";
import { claimBulkItems, drainBulkItems } from "../../server/bulk/worker";
import { flushLookupHistory } from "../../server/history/history";
import { entitlementsFor } from "../../server/plans/catalog";
import type { TestApp } from "../harness";
import { startAppWithFakeDns } from "../fakes/app-with-dns";
import type { FakeDnsServer } from "../fakes/dns-server";

let app: TestApp;
let dns: FakeDnsServer;
beforeAll(async () => {
  process.env.SERVICE_BULK_WORKER = "0";
  ({ app, dns } = await startAppWithFakeDns({
    "acme.test": [
      { type: "A", data: "192.0.2.10" },
      { type: "MX", data: { preference: 10, exchange: "mx.acme.test" } },
    ],
    "example.test": [{ type: "A", data: "192.0.2.20" }],
    "mx.acme.test": [{ type: "A", data: "192.0.2.11" }],
  }));
});
afterAll(() => dns.close());

const ledgerRows = (workspaceId: string) =>
  app.db.usageLedger.findMany({
    where: { workspaceId, endpoint: { not: "admin.usage.adjust" } },
    orderBy: { createdAt: "asc" },
  });

describe("admission", () => {
  it("refuses a Free workspace with 403 BULK_LOOKUPS_REQUIRED, a Starter one too, consuming nothing", async () => {
    for (const plans of [["free"], ["suite_starter"]]) {
      const ws = await app.seedWorkspace({ plans });
      const res = await app.request("POST", "/v1/jobs", {
        key: ws.apiKey,
        body: { kind: "auto", targets: ["8.8.8.8"] },
      });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("BULK_LOOKUPS_REQUIRED");
      // A job needs the entitlement whatever it holds: the refusal does not suggest sending one target.
      expect(res.body.error.message).toMatch(/^Bulk jobs need bulk lookups \(.+\); change the plan to use it\.$/);
      const list = await app.request("GET", "/v1/jobs", { key: ws.apiKey });
      expect(list.status).toBe(403);
      expect(list.body.error.message).not.toMatch(/one target/);
      expect(await app.used(ws.workspaceId)).toBe(0);
      expect(await app.db.bulkJob.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    }
  });

  it("refuses 101 targets and unreadable lines with 400 naming the lines, consuming nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const many = Array.from({ length: 101 }, (_, i) => `10.0.0.${i % 250}`);
    const tooMany = await app.request("POST", "/v1/jobs", { key: ws.apiKey, body: { kind: "ip", targets: many } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe("INVALID_REQUEST");

    const bad = await app.request("POST", "/v1/jobs", {
      key: ws.apiKey,
      body: { kind: "auto", targets: ["8.8.8.8", "not a target!", "acme.test", "pkg:cargo/serde@1", "CVE-2021-44228"] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("line 2");
    expect(bad.body.error.message).toContain("line 4");
    expect(bad.body.error.message).not.toContain("line 1 ");
    const wrongKind = await app.request("POST", "/v1/jobs", {
      key: ws.apiKey,
      body: { kind: "email", targets: ["a@acme.test", "acme.test"] },
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.message).toContain("line 2");
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await ledgerRows(ws.workspaceId)).toEqual([]);
    expect(await app.db.bulkJob.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("estimates without charging: each line's kind and units, the total and whether it fits", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"], usedUnits: 24_990 });
    const res = await app.request("POST", "/v1/jobs/estimate", {
      key: ws.apiKey,
      body: { kind: "auto", targets: ["8.8.8.8", "203.0.113.0/30", "AS15169", "bad target!"] },
    });
    expect(res.status).toBe(200);
    expect(res.body.lines.map((l: any) => [l.line, l.kind, l.units, l.problem === null])).toEqual([
      [1, "ip", 1, true],
      [2, "cidr", 4, true],
      [3, "asn", 1, true],
      [4, null, 0, false],
    ]);
    expect(res.body).toMatchObject({ units: 6, remaining: 10, fits: true, problems: 1 });
    expect(await app.used(ws.workspaceId)).toBe(24_990);
  });

  it("words an item's input problem as a 400 of the same input: its field, a colon, the reason", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await app.request("POST", "/v1/jobs/estimate", {
      key: ws.apiKey,
      body: { kind: "domain", targets: ["exa_mple..com"] },
    });
    expect(res.status).toBe(200);
    const alone = await app.request("GET", "/v1/domain/exa_mple..com", { key: ws.apiKey });
    expect(alone.status).toBe(400);
    expect(res.body.lines[0].problem).toMatch(/^domain: Invalid label/);
    expect(alone.body.error.message).toBe(res.body.lines[0].problem);
  });

  it("reserves the whole job at once or answers 402 with nothing consumed and no job", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"], usedUnits: 24_995 });
    const targets = ["8.8.8.8", "1.1.1.1", "9.9.9.9", "8.8.4.4", "1.0.0.1", "149.112.112.112"];
    const refused = await app.request("POST", "/v1/jobs", { key: ws.apiKey, body: { kind: "ip", targets } });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe("QUOTA_EXCEEDED");
    expect(await app.used(ws.workspaceId)).toBe(24_995);
    expect(await ledgerRows(ws.workspaceId)).toEqual([]);
    expect(await app.db.bulkJob.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);

    const fits = await app.request("POST", "/v1/jobs", {
      key: ws.apiKey,
      body: { kind: "ip", targets: targets.slice(0, 5) },
    });
    expect(fits.status).toBe(202);
    expect(fits.headers.get("x-service-quota-remaining")).toBe("0");
    expect((await ledgerRows(ws.workspaceId)).map((r) => [r.endpoint, r.units])).toEqual([["bulk.job", 5]]);
  });

  it("refuses a kind outside the plan before reserving (planned per line)", async () => {
    const geolocationOnly = { ...entitlementsFor(["free"]), bulk: true };
    const plan = await planJob(geolocationOnly, "auto", ["8.8.8.8", "CVE-2021-44228"]);
    expect(plan.lines[0]).toMatchObject({ kind: "ip", problemKind: "capability", units: 0 });
    expect(plan.lines[0]!.problem).toMatch(/IP reputation lookups need a Suite or Lookups plan/);
    expect(plan.lines[1]).toMatchObject({ kind: "cve", problem: null, units: 1 });
  });
});

describe("running", () => {
  it("summarises an IP item with the same privacy classification as /v1/ip/{ip}", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const created = await app.request("POST", "/v1/jobs", {
      key: ws.apiKey,
      body: { kind: "ip", targets: ["2.58.56.35"] },
    });
    expect(created.status).toBe(202);
    await drainBulkItems(app.db);
    const job = await app.request("GET", `/v1/jobs/${created.body.id}`, { key: ws.apiKey });
    const [item] = job.body.items;
    const direct = await app.request("GET", "/v1/ip/2.58.56.35", { key: ws.apiKey });
    const flags = ["tor", "vpn", "relay", "hosting", "cdn", "crawler", "monitor"].filter(
      (f) => direct.body.privacy[f] === true,
    );
    expect(flags).toContain("tor");
    expect(item.summary).toMatchObject({ privacy: flags.join(" "), service: direct.body.privacy.service });
  });

  it("runs a mixed auto job through the lookups' own procedures: each item's cost and result, usage exact", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const targets = [
      "8.8.8.8",
      "2001:4860:4860::8888",
      "acme.test",
      "someone@acme.test",
      "AS15169",
      "CVE-2021-44228",
      "203.0.113.0/30",
      "http://127.0.0.1:9/",
    ];
    const created = await app.request("POST", "/v1/jobs", { key: ws.apiKey, body: { kind: "auto", targets } });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      status: "running",
      units: { reserved: 11, refunded: 0 },
      progress: { total: 8, queued: 8, done: 0 },
    });
    expect(created.body.kinds).toEqual({ ip: 2, domain: 1, email: 1, asn: 1, cve: 1, cidr: 1, "host.status": 1 });

    await drainBulkItems(app.db);
    const job = await app.request("GET", `/v1/jobs/${created.body.id}`, { key: ws.apiKey });
    expect(job.status).toBe(200);
    const byTarget = Object.fromEntries(job.body.items.map((i: any) => [i.target, i]));
    expect(byTarget["8.8.8.8"]).toMatchObject({ kind: "ip", status: "succeeded", units: 1, summary: { asn: 15169 } });
    expect(byTarget["8.8.8.8"].result.ip).toBe("8.8.8.8");
    // An ASN's summary is what GET /asn/{asn} answers: its operator, registry and hosting (it has no risk score).
    expect(byTarget["AS15169"]).toMatchObject({
      kind: "asn",
      status: "succeeded",
      summary: { organization: "Google LLC", registry: "ARIN", hosting: true },
    });
    expect(byTarget["someone@acme.test"]).toMatchObject({
      kind: "email",
      status: "succeeded",
      summary: { disposable: false },
    });
    expect(byTarget["acme.test"]).toMatchObject({ kind: "domain", status: "succeeded" });
    expect(byTarget["CVE-2021-44228"]).toMatchObject({
      kind: "cve",
      status: "succeeded",
      summary: { known_exploited: true },
    });
    // A CIDR item's summary says how many addresses no blocklist answered (their units go back), as the route does.
    expect(byTarget["203.0.113.0/30"]).toMatchObject({
      kind: "cidr",
      status: "succeeded",
      units: 4,
      summary: { checked: 4, listed: expect.any(Number), incomplete: expect.any(Number) },
    });
    // A loopback URL is refused by the SSRF guard before admission: failed, and its unit goes back.
    expect(byTarget["http://127.0.0.1:9/"]).toMatchObject({
      kind: "host.status",
      status: "failed",
      refunded: true,
      error: { code: "TARGET_FORBIDDEN" },
    });
    expect(job.body).toMatchObject({
      status: "completed",
      units: { reserved: 11, refunded: 1, charged: 10 },
      progress: { succeeded: 7, failed: 1, done: 8, percent: 100 },
    });
    expect(await app.used(ws.workspaceId)).toBe(10);
    expect((await ledgerRows(ws.workspaceId)).map((r) => [r.endpoint, r.units])).toEqual([
      ["bulk.job", 11],
      ["bulk.refund", -1],
    ]);
    // Each item is a lookup like any other: it is in the lookup history.
    await flushLookupHistory();
    const history = await app.request("GET", "/v1/lookups/history", { key: ws.apiKey });
    expect(history.body.items.map((h: any) => h.target)).toContain("8.8.8.8");
  });

  it("a DNS job resolves through the fake DNS server", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const created = await app.request("POST", "/v1/jobs", {
      key: ws.apiKey,
      body: { kind: "dns", targets: ["acme.test", "example.test", "missing.test"] },
    });
    expect(created.status).toBe(202);
    await drainBulkItems(app.db);
    const job = await app.request("GET", `/v1/jobs/${created.body.id}`, { key: ws.apiKey });
    expect(job.body.items.map((i: any) => [i.target, i.status, i.summary?.records ?? null])).toEqual([
      ["acme.test", "succeeded", "192.0.2.10"],
      ["example.test", "succeeded", "192.0.2.20"],
      ["missing.test", "succeeded", ""],
    ]);
    expect(await app.used(ws.workspaceId)).toBe(3);
    // The DNS status is a summary field named like the item's own status column: two columns were headed "status".
    const csv = await app.request("GET", `/v1/jobs/${created.body.id}/results.csv`, { key: ws.apiKey });
    const header = csv.text.split("\r\n")[0]!.split(",");
    expect(new Set(header).size).toBe(header.length);
    expect(header).toContain("summary_status");
    expect(header.indexOf("status")).toBe(3);
  });

  it("survives a crash in the middle: claimed items run again once their claim expires, every item is recorded once", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const targets = Array.from({ length: 12 }, (_, i) => `198.51.100.${i + 1}`);
    const created = await app.request("POST", "/v1/jobs", { key: ws.apiKey, body: { kind: "ip", targets } });
    // A worker claims four items and dies without recording them.
    const lost = await claimBulkItems(app.db, { limit: 4, perJob: 4, leaseMs: 200 });
    expect(lost.filter((i) => i.jobId === created.body.id)).toHaveLength(4);
    await new Promise((r) => setTimeout(r, 300));
    await drainBulkItems(app.db);
    const items = await app.db.bulkItem.findMany({ where: { jobId: created.body.id }, orderBy: { position: "asc" } });
    expect(items.every((i) => i.status === "succeeded")).toBe(true);
    expect(items.filter((i) => i.attempts === 2).map((i) => i.position)).toEqual(
      lost.map((i) => i.position).sort((a, b) => a - b),
    );
    expect(await app.used(ws.workspaceId)).toBe(12);
  });

  it("two workers sharing one job never run an item twice", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const targets = Array.from({ length: 40 }, (_, i) => `192.0.2.${i + 1}`);
    const created = await app.request("POST", "/v1/jobs", { key: ws.apiKey, body: { kind: "ip", targets } });
    await Promise.all([
      drainBulkItems(app.db, { limit: 3, perJob: 6 }),
      drainBulkItems(app.db, { limit: 3, perJob: 6 }),
    ]);
    const items = await app.db.bulkItem.findMany({ where: { jobId: created.body.id } });
    expect(items).toHaveLength(40);
    expect(items.every((i) => i.status === "succeeded" && i.attempts === 1)).toBe(true);
    await flushLookupHistory();
    const history = await app.db.lookupHistory.count({ where: { workspaceId: ws.workspaceId } });
    expect(history).toBe(40);
  });
});

describe("cancel, export, isolation", () => {
  it("cancel: items not started are not run and their units come back in one ledger row with the reason", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const targets = Array.from({ length: 10 }, (_, i) => `203.0.113.${i + 1}`);
    const created = await app.request("POST", "/v1/jobs", { key: ws.apiKey, body: { kind: "ip", targets } });
    const claimed = (await claimBulkItems(app.db, { limit: 2, perJob: 2 })).filter((i) => i.jobId === created.body.id);
    expect(claimed).toHaveLength(2);
    const cancelled = await app.request("POST", `/v1/jobs/${created.body.id}/cancel`, { key: ws.apiKey });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: "cancelled",
      units: { reserved: 10, refunded: 8, charged: 2 },
      progress: { cancelled: 8, running: 2 },
    });
    expect(await app.used(ws.workspaceId)).toBe(2);
    // Each cancelled item says it gave back its one unit.
    const items = await app.request("GET", `/v1/jobs/${created.body.id}?status=cancelled`, { key: ws.apiKey });
    expect(items.body.items.map((i: { refunded_units: number }) => i.refunded_units)).toEqual(Array(8).fill(1));
    const refunds = (await ledgerRows(ws.workspaceId)).filter((r) => r.endpoint === "bulk.refund");
    expect(refunds.map((r) => [r.units, r.reason])).toEqual([
      [-8, `Job ${created.body.id} cancelled: 8 items not run`],
    ]);
    // The two claimed items finish and count; nothing else runs.
    await drainBulkItems(app.db);
    const after = await app.request("GET", `/v1/jobs/${created.body.id}`, { key: ws.apiKey });
    expect(after.body.progress).toMatchObject({ succeeded: 0, cancelled: 8, running: 2 });
    const { runBulkItem } = await import("../../server/bulk/worker");
    for (const c of claimed) await runBulkItem(app.db, c);
    const done = await app.request("GET", `/v1/jobs/${created.body.id}`, { key: ws.apiKey });
    expect(done.body.progress).toMatchObject({ succeeded: 2, cancelled: 8, done: 10 });
    expect(done.body.finished_at).not.toBeNull();
    expect(await app.used(ws.workspaceId)).toBe(2);
    // Cancelling again changes nothing.
    const again = await app.request("POST", `/v1/jobs/${created.body.id}/cancel`, { key: ws.apiKey });
    expect(again.body.units).toEqual({ reserved: 10, refunded: 8, charged: 2 });
  });

  it("cancel: each cancelled item says it gave back all it had reserved, a range's several units included", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const created = await app.request("POST", "/v1/jobs", {
      key: ws.apiKey,
      body: { kind: "auto", targets: ["203.0.113.0/31", "203.0.113.9"] },
    });
    expect(created.body.units).toMatchObject({ reserved: 3 });
    const cancelled = await app.request("POST", `/v1/jobs/${created.body.id}/cancel`, { key: ws.apiKey });
    expect(cancelled.body.units).toEqual({ reserved: 3, refunded: 3, charged: 0 });
    const job = await app.request("GET", `/v1/jobs/${created.body.id}`, { key: ws.apiKey });
    expect(
      job.body.items.map((i: { target: string; units: number; refunded_units: number }) => [
        i.target,
        i.units,
        i.refunded_units,
      ]),
    ).toEqual([
      ["203.0.113.0/31", 2, 2],
      ["203.0.113.9", 1, 1],
    ]);
  });

  it("exports formula-safe CSV, lists jobs, and hides them from other workspaces (404)", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const created = await app.request("POST", "/v1/jobs", {
      key: ws.apiKey,
      body: { kind: "auto", targets: ["8.8.8.8", "=cmd@acme.test"] },
    });
    expect(created.status).toBe(202);
    await drainBulkItems(app.db);
    const csv = await app.request("GET", `/v1/jobs/${created.body.id}/results.csv`, { key: ws.apiKey });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const rows = csv.text.trim().split("\r\n");
    expect(
      rows[0]!.startsWith("position,target,kind,status,units,refunded,refunded_units,error_code,error_message"),
    ).toBe(true);
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatch(/^1,8\.8\.8\.8,ip,succeeded,1,false,0,/);
    expect(rows[2]).toMatch(/^2,'=cmd@acme\.test,email,/);

    const list = await app.request("GET", "/v1/jobs", { key: ws.apiKey });
    expect(list.body.items.map((j: any) => [j.id, j.status, j.progress.total])).toEqual([
      [created.body.id, "completed", 2],
    ]);
    expect(list.body.items[0].created_by).toMatch(/^API key/);

    const other = await app.seedWorkspace({ plans: ["suite_agency"] });
    for (const [method, path] of [
      ["GET", `/v1/jobs/${created.body.id}`],
      ["GET", `/v1/jobs/${created.body.id}/results.csv`],
      ["POST", `/v1/jobs/${created.body.id}/cancel`],
    ] as const) {
      const res = await app.request(method, path, { key: other.apiKey });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    expect((await app.request("GET", "/v1/jobs", { key: other.apiKey })).body.items).toEqual([]);
  });
});
