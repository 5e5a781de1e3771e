// Renaming and deleting saved fraud reports. Only the workspace's owners and the report's author may change a
// report; each change is an audit event in the same transaction, like every other account change.
import { recordAudit, type Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { AppError } from "../errors";

/** Who is asking: a member's id and role (API keys never reach these routes). */
export interface ReportEditor {
  userId: string;
  role: string;
}

async function editable(db: Db, workspaceId: string, id: string, who: ReportEditor) {
  const row = await db.savedReport.findFirst({ where: { id, workspaceId } });
  // A report of another workspace reads as unknown, so the answer reveals nothing about it.
  if (!row) throw new AppError("NOT_FOUND", "No saved report has this id in this workspace.");
  if (who.role !== "owner" && row.createdBy !== who.userId)
    throw new AppError("FORBIDDEN", "Only workspace owners and the report's author can change a report.");
  return row;
}

export async function renameReport(
  db: Db,
  a: { workspaceId: string; id: string; title: string; editor: ReportEditor; actor: Actor; requestId?: string },
): Promise<{ id: string; title: string }> {
  const row = await editable(db, a.workspaceId, a.id, a.editor);
  await db.$transaction(async (tx) => {
    // Counted: a deletion that committed after the read above leaves nothing to rename (404, not a failed update).
    const renamed = await tx.savedReport.updateMany({
      where: { id: row.id, workspaceId: a.workspaceId },
      data: { title: a.title },
    });
    if (renamed.count === 0) throw new AppError("NOT_FOUND", "No saved report has this id in this workspace.");
    await recordAudit(tx, {
      workspaceId: a.workspaceId,
      type: "audit.report.renamed",
      actor: a.actor,
      target: { kind: "report", id: row.id, label: a.title },
      before: { title: row.title },
      after: { title: a.title },
      requestId: a.requestId,
    });
  });
  return { id: row.id, title: a.title };
}

export async function deleteReport(
  db: Db,
  a: { workspaceId: string; id: string; editor: ReportEditor; actor: Actor; requestId?: string },
): Promise<{ id: string; deleted: true }> {
  const row = await editable(db, a.workspaceId, a.id, a.editor);
  await db.$transaction(async (tx) => {
    // Counted: the same deletion sent twice at once is 404 for the second, not a failed delete (500).
    const deleted = await tx.savedReport.deleteMany({ where: { id: row.id, workspaceId: a.workspaceId } });
    if (deleted.count === 0) throw new AppError("NOT_FOUND", "No saved report has this id in this workspace.");
    await recordAudit(tx, {
      workspaceId: a.workspaceId,
      type: "audit.report.deleted",
      actor: a.actor,
      target: { kind: "report", id: row.id, label: row.title },
      before: { title: row.title },
      after: null,
      requestId: a.requestId,
    });
  });
  return { id: row.id, deleted: true };
}
