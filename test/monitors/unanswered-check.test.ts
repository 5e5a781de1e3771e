// A monitor check that no source answered gives its unit back (issue 42, item 0; DESIGN "Charging"): the run reserved
// one unit per check, the check's lookups all answered 503 (the DNS server on 127.0.0.1 drops every query), so the run
// refunds it in a ledger row with the reason, the run records 0 units, and the lookups' history entries hold 0 units
// with what they gave back (the first lookup carried the check's unit). A check whose lookups answered keeps its unit. Both stores: DATABASE_URL selects PostgreSQL.
import { beforeEach, describe, expect, it } from "vitest";
import { flushLookupHistory } from "../../server/history/history";
import { runMonitor } from "../../server/monitors/run";
import { createTestApp } from "../harness";
import { A, api, monitorDns } from "./helpers";

const app = await createTestApp();
const dns = await monitorDns({ "shop.test": A() });

beforeEach(() => {
  dns.down = false;
});

async function dnsMonitor(key: string): Promise<string> {
  const res = await api(app, key)("POST", "/v1/monitors", {
    name: "Shop",
    target: "shop.test",
    checks: [{ type: "dns", record_types: ["A", "MX"] }],
    interval: "1h",
  });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

describe("a monitor check that was not answered", () => {
  it("gives its unit back: usage unchanged, a refund row with the reason, 0 units on the run and its lookups", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const id = await dnsMonitor(ws.apiKey);
    dns.down = true;
    const outcome = await runMonitor(app.db, id);
    expect(outcome.status).toBe("completed");
    expect(await app.used(ws.workspaceId)).toBe(0);
    const ledger = await app.db.usageLedger.findMany({
      where: { workspaceId: ws.workspaceId },
      orderBy: { units: "desc" },
    });
    expect(ledger.map((l) => [l.endpoint, l.units])).toEqual([
      ["monitor.run", 1],
      ["monitor.refund", -1],
    ]);
    expect(ledger[1]!.reason).toContain("1 check not answered");
    const run = await app.db.monitorRun.findUniqueOrThrow({ where: { id: outcome.runId } });
    expect(run.units).toBe(0);
    await flushLookupHistory();
    const entries = await app.db.lookupHistory.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(entries).toHaveLength(2);
    expect(entries.map((e) => [e.endpoint, e.units, e.status])).toEqual([
      ["dns.lookup", 0, 503],
      ["dns.lookup", 0, 503],
    ]);
    // The first lookup carried the check's unit and gave it back; the second carried none.
    expect(entries.map((e) => (e.summary as Record<string, unknown>).refunded_units ?? 0).sort()).toEqual([0, 1]);
  });

  it("a check that was answered keeps its unit", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const id = await dnsMonitor(ws.apiKey);
    await runMonitor(app.db, id);
    expect(await app.used(ws.workspaceId)).toBe(1);
    await flushLookupHistory();
    const entries = await app.db.lookupHistory.findMany({ where: { workspaceId: ws.workspaceId } });
    expect(entries.reduce((n, e) => n + (e.units ?? 0), 0)).toBe(1);
  });
});
