// The purge deletes reports only after their expiry plus the grace period; legacy reports are never deleted.
import { describe, expect, it } from "vitest";
import { deleteExpiredReports } from "../../server/reports/reports";
import { createTestApp } from "../harness";

const app = await createTestApp();
const DAY = 86_400_000;

describe("deleteExpiredReports", () => {
  it("deletes reports expired longer than the grace period and keeps the rest", async () => {
    const { workspaceId } = await app.seedWorkspace({ plans: ["suite_starter"] });
    const now = new Date("2030-06-01T00:00:00Z");
    const rows = [
      { id: "rpt_purge_old", expiresAt: new Date(now.getTime() - 31 * DAY) },
      { id: "rpt_purge_recent", expiresAt: new Date(now.getTime() - 5 * DAY) },
      { id: "rpt_purge_live", expiresAt: new Date(now.getTime() + DAY) },
      { id: "rpt_purge_legacy", expiresAt: null },
    ];
    for (const r of rows)
      await app.db.savedReport.create({
        data: { ...r, workspaceId, title: r.id, body: {}, createdAt: new Date(now.getTime() - 100 * DAY) },
      });
    expect(await deleteExpiredReports(app.db, now, 30)).toBe(1);
    const left = await app.db.savedReport.findMany({ where: { workspaceId }, orderBy: { id: "asc" } });
    expect(left.map((r) => r.id)).toEqual(["rpt_purge_legacy", "rpt_purge_live", "rpt_purge_recent"]);
    expect(await deleteExpiredReports(app.db, now, 0)).toBe(1);
  });

  it("reads the grace period from SERVICE_REPORTS_PURGE_AFTER_DAYS", async () => {
    const { workspaceId } = await app.seedWorkspace({ plans: ["suite_starter"] });
    // Earlier than the first test's rows expire, so the purge (across all workspaces) sees only this one.
    const now = new Date("2029-01-01T00:00:00Z");
    await app.db.savedReport.create({
      data: { id: "rpt_env_1", workspaceId, title: "t", body: {}, expiresAt: new Date(now.getTime() - 3 * DAY) },
    });
    process.env.SERVICE_REPORTS_PURGE_AFTER_DAYS = "7";
    try {
      expect(await deleteExpiredReports(app.db, now)).toBe(0);
      process.env.SERVICE_REPORTS_PURGE_AFTER_DAYS = "2";
      expect(await deleteExpiredReports(app.db, now)).toBe(1);
    } finally {
      delete process.env.SERVICE_REPORTS_PURGE_AFTER_DAYS;
    }
  });
});
