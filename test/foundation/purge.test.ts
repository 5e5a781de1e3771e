import { beforeAll, expect, it } from "vitest";
import { runRetentionPurge } from "../../server/maintenance/purge";
import { newId } from "../../server/ids";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

it("deletes expired history and reports after the grace period, and keeps everything else", async () => {
  const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
  const now = new Date("2026-11-22T12:00:00Z");
  const day = 86_400_000;
  const history = (expiresAt: Date) => ({
    id: newId("lkh"),
    workspaceId: ws.workspaceId,
    requestId: "req_x",
    endpoint: "ip.geo",
    target: "8.8.8.8",
    summary: {},
    createdAt: now,
    expiresAt,
  });
  await app.db.lookupHistory.createMany({
    data: [
      history(new Date(now.getTime() - 8 * day)),
      history(new Date(now.getTime() - 2 * day)),
      history(new Date(now.getTime() + day)),
    ],
  });
  const report = (expiresAt: Date | null) => ({
    id: newId("rpt"),
    workspaceId: ws.workspaceId,
    title: "r",
    body: {},
    expiresAt,
  });
  await app.db.savedReport.createMany({
    data: [report(new Date(now.getTime() - 30 * day)), report(new Date(now.getTime() + day)), report(null)],
  });
  await app.db.rateLimitBucket.createMany({
    data: [
      { bucket: "t", windowStart: new Date(now.getTime() - 2 * day), count: 1 },
      { bucket: "t", windowStart: now, count: 1 },
    ],
  });

  const result = await runRetentionPurge(app.db, now);
  expect(result).toMatchObject({ lookupHistory: 1, savedReports: 1, rateLimitBuckets: 1 });
  expect(await app.db.lookupHistory.count({ where: { workspaceId: ws.workspaceId } })).toBe(2);
  expect(await app.db.savedReport.count({ where: { workspaceId: ws.workspaceId } })).toBe(2);
  expect(await app.db.savedReport.count({ where: { workspaceId: ws.workspaceId, expiresAt: null } })).toBe(1);
});
