// A refund lowers the per-endpoint row of what it gives back, in every figure (GET /analytics/summary's `endpoints`
// and `thisMonth.endpoints`, GET /analytics/timeseries' `endpoints`): a bulk job's `bulk.refund` rows count under
// `bulk.job` and a monitor run's `monitor.refund` under `monitor.run`, as a lookup's refund counts under its lookup,
// never as a row of their own (server/analytics/ledger-counts.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../server/ids";
import { periodStart } from "../../server/quota/period";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

async function ledger(workspaceId: string, apiKeyId: string, endpoint: string, units: number, requestId: string) {
  const at = new Date();
  await app.db.usageLedger.create({
    data: { id: newId("led"), workspaceId, periodStart: periodStart(at), requestId, apiKeyId, endpoint, units },
  });
}

const rows = (list: { endpoint: string; requests: number; units: number }[]) =>
  Object.fromEntries(list.map((e) => [e.endpoint, { requests: e.requests, units: e.units }]));

describe("refunds in the per-endpoint figures", () => {
  it("lower the row of what they give back, with no row of their own", async () => {
    const ws = await app.seedWorkspace();
    await ledger(ws.workspaceId, ws.apiKeyId, "bulk.job", 7, "req_job");
    await ledger(ws.workspaceId, ws.apiKeyId, "bulk.refund", -3, "req_cancel");
    await ledger(ws.workspaceId, ws.apiKeyId, "monitor.run", 3, "run_1");
    await ledger(ws.workspaceId, ws.apiKeyId, "monitor.refund", -1, "run_1");
    await ledger(ws.workspaceId, ws.apiKeyId, "ip.lookup", 1, "req_ip");
    await ledger(ws.workspaceId, ws.apiKeyId, "ip.lookup", -1, "req_ip");
    const expected = {
      "bulk.job": { requests: 1, units: 4 },
      "monitor.run": { requests: 1, units: 2 },
      "ip.lookup": { requests: 1, units: 0 },
    };
    const summary = await app.request("GET", "/v1/analytics/summary", { key: ws.apiKey });
    expect(summary.status).toBe(200);
    expect(rows(summary.body.endpoints)).toEqual(expected);
    expect(rows(summary.body.thisMonth.endpoints)).toMatchObject(expected);
    expect(Object.keys(rows(summary.body.thisMonth.endpoints))).not.toContain("monitor.refund");
    const series = await app.request("GET", "/v1/analytics/timeseries?days=1", { key: ws.apiKey });
    expect(series.status).toBe(200);
    expect(rows(series.body.endpoints)).toEqual(expected);
  });
});
