// Custom rules of a workspace: allow, review, challenge or block when all conditions hold. Every query filters on
// the workspace; another workspace's rule is answered as not found. Changes are recorded as investigation events.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { recordEvent } from "../events/events";
import { newId } from "../ids";
import type { Condition } from "./conditions";
import { maxRulesPerWorkspace } from "./config";

export const RULE_ACTIONS = ["allow", "review", "challenge", "block"] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];

export interface RuleRecord {
  id: string;
  name: string;
  action: RuleAction;
  priority: number;
  enabled: boolean;
  conditions: Condition[];
  created_at: string;
  updated_at: string;
}

export interface RuleChanges {
  name?: string;
  action?: RuleAction;
  priority?: number;
  enabled?: boolean;
  conditions?: Condition[];
}

type Row = { id: string; name: string; action: string; priority: number; enabled: boolean; conditions: unknown; createdAt: Date; updatedAt: Date };

function toRecord(r: Row): RuleRecord {
  return {
    id: r.id,
    name: r.name,
    action: r.action as RuleAction,
    priority: r.priority,
    enabled: r.enabled,
    conditions: r.conditions as Condition[],
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** Evaluation order: ascending priority, then oldest first (ties broken by id so the order is stable). */
const ORDER = [{ priority: "asc" as const }, { createdAt: "asc" as const }, { id: "asc" as const }];

export async function listRules(db: Db, workspaceId: string): Promise<RuleRecord[]> {
  const rows = await db.rule.findMany({ where: { workspaceId }, orderBy: ORDER });
  return rows.map(toRecord);
}

/** The enabled rules an assessment evaluates, in evaluation order. */
export async function enabledRules(db: Db, workspaceId: string) {
  return db.rule.findMany({ where: { workspaceId, enabled: true }, orderBy: ORDER, select: { id: true, name: true, action: true, conditions: true } });
}

export async function getRuleOrThrow(db: Db, workspaceId: string, id: string): Promise<RuleRecord> {
  const row = await db.rule.findFirst({ where: { id, workspaceId } });
  if (!row) throw new AppError("NOT_FOUND", `No rule ${id} in this workspace.`);
  return toRecord(row);
}

export async function createRule(
  db: Db,
  a: { workspaceId: string; requestId: string; rule: Required<Pick<RuleChanges, "name" | "action" | "conditions">> & RuleChanges },
): Promise<RuleRecord> {
  const max = maxRulesPerWorkspace();
  // A count-then-insert can overshoot by a few under concurrent creates; the limit is a guard, not a quota.
  if ((await db.rule.count({ where: { workspaceId: a.workspaceId } })) >= max) {
    throw new AppError("CONFLICT", `This workspace already has the maximum of ${max} rules; delete one first.`);
  }
  const row = await db.rule.create({
    data: {
      id: newId("rule"),
      workspaceId: a.workspaceId,
      name: a.rule.name,
      action: a.rule.action,
      priority: a.rule.priority ?? 0,
      enabled: a.rule.enabled ?? true,
      conditions: a.rule.conditions as object[],
    },
  });
  await recordRuleEvent(db, a.workspaceId, a.requestId, "rule.created", row);
  return toRecord(row);
}

export async function updateRuleOrThrow(db: Db, a: { workspaceId: string; requestId: string; id: string; changes: RuleChanges }): Promise<RuleRecord> {
  await getRuleOrThrow(db, a.workspaceId, a.id);
  const { conditions, ...rest } = a.changes;
  const res = await db.rule.updateMany({
    where: { id: a.id, workspaceId: a.workspaceId },
    data: { ...rest, ...(conditions ? { conditions: conditions as object[] } : {}) },
  });
  if (res.count === 0) throw new AppError("NOT_FOUND", `No rule ${a.id} in this workspace.`);
  const row = await getRuleOrThrow(db, a.workspaceId, a.id);
  await recordEvent(db, { workspaceId: a.workspaceId, requestId: a.requestId, type: "rule.updated", rule: row.id, data: { name: row.name, action: row.action, changed: Object.keys(a.changes) } });
  return row;
}

export async function deleteRuleOrThrow(db: Db, a: { workspaceId: string; requestId: string; id: string }): Promise<{ id: string; deleted: true }> {
  const res = await db.rule.deleteMany({ where: { id: a.id, workspaceId: a.workspaceId } });
  if (res.count === 0) throw new AppError("NOT_FOUND", `No rule ${a.id} in this workspace.`);
  await recordEvent(db, { workspaceId: a.workspaceId, requestId: a.requestId, type: "rule.deleted", rule: a.id, data: {} });
  return { id: a.id, deleted: true };
}

function recordRuleEvent(db: Db, workspaceId: string, requestId: string, type: string, row: Row) {
  return recordEvent(db, { workspaceId, requestId, type, rule: row.id, data: { name: row.name, action: row.action, priority: row.priority, enabled: row.enabled } });
}
