// Entries recorded in the same millisecond still list newest first: the id that breaks a created_at tie sorts by
// creation (server/ids.ts sortableId). With random ids, three entries of one millisecond listed in any of six orders.
// Real database.
import { beforeAll, describe, expect, it } from "vitest";
import { listLookupHistory, recordLookupHistory } from "../../server/history/history";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe("lookup history order", () => {
  it("lists entries of one millisecond in the reverse of the order they were recorded", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const now = new Date();
    const targets = ["8.8.8.8", "1.1.1.1", "9.9.9.9", "8.8.4.4", "1.0.0.1"];
    for (const target of targets)
      recordLookupHistory(app.db, {
        workspaceId: ws.workspaceId,
        requestId: `req_same_ms_${target}`,
        endpoint: "ip.geo",
        target,
        summary: {},
        units: 1,
        historyDays: 30,
        now,
      });
    const listed = await listLookupHistory(app.db, { workspaceId: ws.workspaceId, limit: 10 });
    expect(listed.items.map((i) => i.target)).toEqual([...targets].reverse());
    expect(new Set(listed.items.map((i) => i.created_at))).toHaveLength(1);
  });
});
