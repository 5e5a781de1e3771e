// Lists paged by id alone (monitors, a monitor's runs and alerts, review cases, bulk jobs) refuse a cursor that
// names none of their rows in the caller's workspace (made up, or another workspace's) with 400 INVALID_REQUEST,
// as the lists paged by time do (server/pages.ts), where a made-up id answered an empty page or a page from wherever
// it sorted. A real cursor still continues the walk. Both stores.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sortableId } from "../../server/ids";
import type { TestApp } from "../harness";
import { startAppWithFakeDns } from "../fakes/app-with-dns";
import type { FakeDnsServer } from "../fakes/dns-server";
import { useFakePackageSources } from "../vulnerabilities/fake-sources";

let app: TestApp;
let dns: FakeDnsServer;
useFakePackageSources();
beforeAll(async () => {
  process.env.SERVICE_BULK_WORKER = "0";
  ({ app, dns } = await startAppWithFakeDns({}));
});
afterAll(() => dns.close());

const get = async (key: string, path: string) => app.request("GET", path, { key });

async function expectRefused(key: string, path: string) {
  const r = await get(key, path);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(400);
  expect(r.body.error.code).toBe("INVALID_REQUEST");
  expect(r.body.error.message).toMatch(/^cursor: unknown cursor/);
}

describe("a cursor of a list paged by id", () => {
  it("continues from a row of the list, and is refused when it names none of the workspace's", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const other = await app.seedWorkspace({ plans: ["suite_agency"] });
    const monitor = async (key: string, target: string) => {
      const r = await app.request("POST", "/v1/monitors", {
        key,
        body: {
          target,
          checks: [{ type: "packages", packages: [{ ecosystem: "npm", name: "left-pad", version: "1.3.0" }] }],
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.id as string;
    };
    const mine = [await monitor(ws.apiKey, "shop-a"), await monitor(ws.apiKey, "shop-b")];
    const theirs = await monitor(other.apiKey, "shop-c");

    const first = await get(ws.apiKey, "/v1/monitors?limit=1");
    expect(first.body.items.map((m: { id: string }) => m.id)).toEqual([mine[0]]);
    const second = await get(ws.apiKey, `/v1/monitors?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.status).toBe(200);
    expect(second.body.items.map((m: { id: string }) => m.id)).toEqual([mine[1]]);
    for (const cursor of ["zzz", "mon_made_up", theirs])
      await expectRefused(ws.apiKey, `/v1/monitors?cursor=${cursor}`);

    // A monitor's runs and alerts: two of each stored for the first monitor, one run for the other workspace's.
    const now = Date.now();
    const runs = [0, 1].map((i) => ({
      id: sortableId("run"),
      monitorId: mine[0]!,
      workspaceId: ws.workspaceId,
      status: "completed",
      startedAt: new Date(now + i),
      finishedAt: new Date(now + i),
    }));
    await app.db.monitorRun.createMany({ data: runs });
    const foreignRun = sortableId("run");
    await app.db.monitorRun.create({
      data: {
        id: foreignRun,
        monitorId: theirs,
        workspaceId: other.workspaceId,
        status: "completed",
        startedAt: new Date(),
      },
    });
    const alerts = runs.map((run, i) => ({
      id: sortableId("alr"),
      monitorId: mine[0]!,
      workspaceId: ws.workspaceId,
      type: "monitor.alert",
      check: "packages",
      severity: "critical",
      runId: run.id,
      createdAt: new Date(now + i),
    }));
    await app.db.monitorAlert.createMany({ data: alerts });
    for (const [list, rows] of [
      ["runs", runs],
      ["alerts", alerts],
    ] as const) {
      const path = `/v1/monitors/${mine[0]}/${list}`;
      const page = await get(ws.apiKey, `${path}?limit=1`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.items.map((r: { id: string }) => r.id)).toEqual([rows[1]!.id]);
      const next = await get(ws.apiKey, `${path}?limit=1&cursor=${page.body.next_cursor}`);
      expect(next.body.items.map((r: { id: string }) => r.id)).toEqual([rows[0]!.id]);
      // Another monitor's row is no cursor of this one's list, even in the same workspace.
      const elsewhere = list === "runs" ? foreignRun : "alr_made_up";
      for (const cursor of ["zzz", elsewhere]) await expectRefused(ws.apiKey, `${path}?cursor=${cursor}`);
    }
    const otherMonitorsRun = await get(ws.apiKey, `/v1/monitors/${mine[1]}/runs?cursor=${runs[0]!.id}`);
    expect(otherMonitorsRun.status).toBe(400);

    // Review cases: two of this workspace, one of the other's.
    const kase = (workspaceId: string, i: number) => ({
      id: sortableId("case"),
      workspaceId,
      requestId: `req_cursor_case_${workspaceId}_${i}`,
      decision: "review",
      score: 60,
      createdAt: new Date(now + i),
    });
    const cases = [kase(ws.workspaceId, 0), kase(ws.workspaceId, 1)];
    const foreignCase = kase(other.workspaceId, 0);
    await app.db.reviewCase.createMany({ data: [...cases, foreignCase] });
    const queue = await get(ws.apiKey, "/v1/cases?limit=1");
    expect(queue.body.items.map((c: { id: string }) => c.id)).toEqual([cases[0]!.id]);
    const rest = await get(ws.apiKey, `/v1/cases?limit=1&cursor=${queue.body.next_cursor}`);
    expect(rest.body.items.map((c: { id: string }) => c.id)).toEqual([cases[1]!.id]);
    for (const cursor of ["zzz", foreignCase.id]) await expectRefused(ws.apiKey, `/v1/cases?cursor=${cursor}`);

    // Bulk jobs (the worker is off: they stay queued).
    const job = async (key: string) => {
      const r = await app.request("POST", "/v1/jobs", { key, body: { kind: "ip", targets: ["8.8.8.8"] } });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
      return r.body.id as string;
    };
    const jobs = [await job(ws.apiKey), await job(ws.apiKey)];
    const foreignJob = await job(other.apiKey);
    const newest = await get(ws.apiKey, "/v1/jobs?limit=1");
    expect(newest.body.items.map((j: { id: string }) => j.id)).toEqual([jobs[1]]);
    const older = await get(ws.apiKey, `/v1/jobs?limit=1&cursor=${newest.body.next_cursor}`);
    expect(older.body.items.map((j: { id: string }) => j.id)).toEqual([jobs[0]]);
    for (const cursor of ["zzz", foreignJob]) await expectRefused(ws.apiKey, `/v1/jobs?cursor=${cursor}`);
  });

  it("a named list's cursor is a name or a value the list issued: a made-up one is 400, not a page", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const other = await app.seedWorkspace({ plans: ["suite_agency"] });
    const create = async (key: string, name: string) =>
      (await app.request("POST", "/v1/lists", { key, body: { name, kind: "email" } })).body.id as string;
    const a = await create(ws.apiKey, "a_list");
    await create(ws.apiKey, "b_list");
    await create(other.apiKey, "c_list");
    const first = await get(ws.apiKey, "/v1/lists?limit=1");
    const next = await get(ws.apiKey, `/v1/lists?limit=1&cursor=${first.body.next_cursor}`);
    expect(next.body.items.map((l: { name: string }) => l.name)).toEqual(["b_list"]);
    for (const cursor of ["zzzz", "c_list"]) await expectRefused(ws.apiKey, `/v1/lists?cursor=${cursor}`);

    const added = await app.request("POST", `/v1/lists/${a}/items`, {
      key: ws.apiKey,
      body: { items: [{ value: "a@example.com" }, { value: "b@example.com" }] },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const page = await get(ws.apiKey, `/v1/lists/${a}/items?limit=1`);
    const rest = await get(
      ws.apiKey,
      `/v1/lists/${a}/items?limit=1&cursor=${encodeURIComponent(page.body.next_cursor)}`,
    );
    expect(rest.body.items.map((i: { value: string }) => i.value)).toEqual(["b@example.com"]);
    await expectRefused(ws.apiKey, `/v1/lists/${a}/items?cursor=zzzz`);
  });
});
