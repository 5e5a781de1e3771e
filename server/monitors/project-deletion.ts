// Deleting a project: its scans, its audit event and the monitors that watch it (with their runs, alerts, queued
// emails and audit events) go in one transaction. Apart, a failure after the scans' commit left the monitor behind,
// failing every run, and the retry was 404 (no scan left) before it reached the monitor.
// Here, in the monitors' area, rather than in projects/: the monitors build on the projects, not the other way round
// (test/foundation/layers.test.ts).
import type { Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { deleteProjectScansOrThrow } from "../projects/store";
import type { Entitlements } from "../plans/catalog";
import { applyMonitorLimit, deleteProjectMonitors } from "./monitors";

export async function deleteProjectOrThrow(
  db: Db,
  a: { workspaceId: string; name: string; actor: Actor; requestId: string; entitlements: Entitlements; now?: Date },
) {
  const { project, monitors } = await db.$transaction(async (tx) => {
    const project = await deleteProjectScansOrThrow(tx, a);
    const monitors = await deleteProjectMonitors(tx, { ...a, project: a.name });
    return { project, monitors };
  });
  // The places the monitors free go to the oldest ones a smaller plan paused, as DELETE /monitors/{id} gives them.
  if (monitors.deleted.length && monitors.pausedLeft > 0) await applyMonitorLimit(db, a);
  return { ...project, monitors_deleted: monitors.deleted };
}
