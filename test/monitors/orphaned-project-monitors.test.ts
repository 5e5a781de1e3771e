// Project monitors orphaned before 161474c (their project deleted while the deletion left them) are removed by the
// migration 20261129183000_orphaned_project_monitors, as DELETE /v1/monitors/{id} would: their runs, alerts and queued
// emails go with them and each gets an audit.monitor.deleted event (actor system). Only those: a project monitor whose
// project is still stored, or whose scans expired without a deletion (a new scan brings it back), or whose project was
// scanned again after its deletion, stays; so do other monitors with the same target, and other workspaces' ones.
import { describe, expect, it } from "vitest";
import { createTestApp } from "../harness";
import { runMigrationFile } from "../migration-file";

const MIGRATION = "20261129183000_orphaned_project_monitors";
const app = await createTestApp();

const DAY = 86_400_000;
const T0 = new Date("2026-10-01T00:00:00Z");
const at = (days: number) => new Date(T0.getTime() + days * DAY);

async function monitor(workspaceId: string, id: string, target: string, checks: object[], createdAt = at(0)) {
  await app.db.monitor.create({
    data: {
      id,
      workspaceId,
      name: id === "mon_gone" ? "Web app" : null,
      target,
      checks,
      interval: "24h",
      thresholds: { tls_expiry_days: [21, 7] },
      nextRunAt: at(60),
      createdAt,
    },
  });
}

async function scanOf(workspaceId: string, project: string, createdAt: Date, expiresAt = at(400)) {
  await app.db.projectScan.create({
    data: {
      id: `psc_${project.replace(/\W/g, "_")}_${createdAt.getTime()}`,
      workspaceId,
      project,
      ref: "default",
      format: "package-lock",
      packages: [{ ecosystem: "npm", name: "jquery", version: "3.4.1" }],
      report: {},
      summary: {},
      createdAt,
      expiresAt,
    },
  });
}

/** The audit event DELETE /v1/projects/{name} writes (server/projects/store.ts deleteProjectScansOrThrow). */
async function projectDeleted(workspaceId: string, name: string, createdAt: Date) {
  const id = `evt_${name.replace(/\W/g, "_")}_${createdAt.getTime()}`;
  await app.db.event.create({
    data: {
      id,
      workspaceId,
      requestId: id,
      type: "audit.project.deleted",
      actor: "user:usr_1",
      data: { target: { kind: "project", id: name, label: name }, before: { scans: 2 }, after: null },
      createdAt,
    },
  });
}

describe("the migration of project monitors orphaned before 161474c", () => {
  it("deletes a monitor whose project was deleted after it, with its runs, alerts and emails, and audits it", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const other = await app.seedWorkspace({ plans: ["suite_agency"] });
    const project = [{ type: "project" }];

    // Orphaned: created, then its project deleted (scans gone).
    await monitor(ws.workspaceId, "mon_gone", "acme/gone", project, at(1));
    await projectDeleted(ws.workspaceId, "acme/gone", at(5));
    await app.db.monitorRun.create({
      data: {
        id: "run_gone",
        monitorId: "mon_gone",
        workspaceId: ws.workspaceId,
        status: "completed",
        startedAt: at(6),
      },
    });
    await app.db.monitorAlert.create({
      data: {
        id: "alr_gone",
        monitorId: "mon_gone",
        workspaceId: ws.workspaceId,
        type: "monitor.alert",
        check: "project",
        severity: "critical",
        open: true,
        createdAt: at(8),
      },
    });
    await app.db.monitorEmail.create({
      data: {
        id: "eml_gone",
        monitorId: "mon_gone",
        workspaceId: ws.workspaceId,
        alertId: "alr_gone",
        recipient: "owner@example.com",
        subject: "s",
        text: "t",
        html: "h",
        unsubscribeUrl: "http://127.0.0.1/u",
        nextAttemptAt: at(8),
      },
    });
    // Stays: its project is stored.
    await monitor(ws.workspaceId, "mon_live", "acme/live", project);
    await scanOf(ws.workspaceId, "acme/live", at(0));
    // Stays: its project's scans expired and were purged, never deleted; a new scan brings it back.
    await monitor(ws.workspaceId, "mon_expired", "acme/expired", project);
    // Stays: its project was deleted and scanned again since.
    await monitor(ws.workspaceId, "mon_rescanned", "acme/again", project, at(1));
    await projectDeleted(ws.workspaceId, "acme/again", at(2));
    await scanOf(ws.workspaceId, "acme/again", at(3));
    // Stays: its project was deleted before it was created, then scanned again and that scan expired and was purged.
    await monitor(ws.workspaceId, "mon_older_deletion", "acme/older", project, at(10));
    await projectDeleted(ws.workspaceId, "acme/older", at(2));
    // Stays: a packages monitor whose label is the deleted project's name.
    await monitor(ws.workspaceId, "mon_label", "acme/gone", [
      { type: "packages", packages: [{ ecosystem: "npm", name: "jquery", version: "3.4.1" }] },
    ]);
    // Stays: another workspace's project of the same name was deleted, not this one's.
    await monitor(other.workspaceId, "mon_other", "acme/kept", project);
    await projectDeleted(ws.workspaceId, "acme/kept", at(5));
    await scanOf(other.workspaceId, "acme/kept", at(0), at(-1)); // expired, not yet purged: not deleted either

    await runMigrationFile(app.db, MIGRATION);

    const left = await app.db.monitor.findMany({ select: { id: true }, orderBy: { id: "asc" } });
    expect(left.map((m) => m.id)).toEqual([
      "mon_expired",
      "mon_label",
      "mon_live",
      "mon_older_deletion",
      "mon_other",
      "mon_rescanned",
    ]);
    expect(await app.db.monitorRun.count({ where: { monitorId: "mon_gone" } })).toBe(0);
    expect(await app.db.monitorAlert.count({ where: { monitorId: "mon_gone" } })).toBe(0);
    expect(await app.db.monitorEmail.count({ where: { monitorId: "mon_gone" } })).toBe(0);
    const audit = await app.db.event.findMany({ where: { type: "audit.monitor.deleted" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ workspaceId: ws.workspaceId, actor: "system" });
    expect(audit[0]!.id).toMatch(/^evt_[0-9a-f]{16}/);
    expect(audit[0]!.requestId).toBe(audit[0]!.id);
    expect(audit[0]!.data).toMatchObject({
      actor: { kind: "system", reason: expect.stringContaining("acme/gone was deleted") },
      target: { kind: "monitor", id: "mon_gone", label: "Web app" },
      before: { target: "acme/gone", checks: [{ type: "project" }], interval: "24h", status: "active" },
      after: null,
    });

    // Run again (a second start): nothing more changes.
    await runMigrationFile(app.db, MIGRATION);
    expect(await app.db.monitor.count()).toBe(6);
    expect(await app.db.event.count({ where: { type: "audit.monitor.deleted" } })).toBe(1);
  });
});
