// Custom rules of a workspace: allow, review, challenge or block when the conditions hold or the expression is true. Every query filters on
// the workspace; another workspace's rule is answered as not found. Changes are audit events (audit.rule.*) with
// their actor and the rule before and after, written in the same transaction.
import { recordAudit, type Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { Prisma, type Rule } from "../db/generated/client";
import { AppError } from "../errors";
import { sortableId } from "../ids";
import type { Condition } from "./conditions";
import { maxRulesPerWorkspace } from "./config";
import { assertListsExist } from "../lists/lists";

export const RULE_ACTIONS = ["allow", "review", "challenge", "block"] as const;
export type RuleAction = (typeof RULE_ACTIONS)[number];
export const RULE_MODES = ["active", "shadow"] as const;
export type RuleMode = (typeof RULE_MODES)[number];

export interface RuleRecord {
  id: string;
  name: string;
  action: RuleAction;
  mode: RuleMode;
  priority: number;
  enabled: boolean;
  conditions: Condition[] | null;
  expression: string | null;
  created_at: string;
  updated_at: string;
}

export interface RuleChanges {
  name?: string;
  action?: RuleAction;
  mode?: RuleMode;
  priority?: number;
  enabled?: boolean;
  conditions?: Condition[];
  expression?: string;
}

type Row = {
  id: string;
  name: string;
  action: string;
  mode: string;
  priority: number;
  enabled: boolean;
  conditions: unknown;
  expression: string | null;
  createdAt: Date;
  updatedAt: Date;
};

function toRecord(r: Row): RuleRecord {
  return {
    id: r.id,
    name: r.name,
    action: r.action as RuleAction,
    mode: r.mode === "shadow" ? "shadow" : "active",
    priority: r.priority,
    enabled: r.enabled,
    conditions: r.expression === null && Array.isArray(r.conditions) ? (r.conditions as Condition[]) : null,
    expression: r.expression,
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

/** The enabled rules an assessment evaluates (active and shadow), in evaluation order. */
/** An enabled rule as an assessment evaluates it. */
export type EnabledRule = Pick<Rule, "id" | "name" | "action" | "mode" | "conditions" | "expression">;

/**
 * A workspace's enabled rules as one SQL expression (a JSON array, in evaluation order: priority, then age) over
 * the workspace id parameter
 * `workspaceParam`, for a statement that reads them along with other things (server/assessment/assess.ts).
 */
export function enabledRulesSql(workspaceParam: string): string {
  return `(SELECT coalesce(json_agg(json_build_object('id', r."id", 'name', r."name", 'action', r."action", 'mode', r."mode", 'conditions', r."conditions", 'expression', r."expression")
            ORDER BY r."priority", r."createdAt", r."id"), '[]'::json)
      FROM "Rule" r WHERE r."workspaceId" = ${workspaceParam} AND r."enabled")`;
}

/** What enabledRulesSql read, as enabledRules returns it. */
export function enabledRulesFrom(value: unknown): EnabledRule[] {
  const rows = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(rows) ? (rows as EnabledRule[]) : [];
}

export async function getRuleOrThrow(db: Db, workspaceId: string, id: string): Promise<RuleRecord> {
  const row = await db.rule.findFirst({ where: { id, workspaceId } });
  if (!row) throw new AppError("NOT_FOUND", `No rule ${id} in this workspace.`);
  return toRecord(row);
}

/** The columns of a rule's form: setting one form clears the other, so a rule always has exactly one. */
function formData(r: { conditions?: Condition[]; expression?: string }) {
  if (r.expression !== undefined) return { expression: r.expression, conditions: Prisma.DbNull };
  if (r.conditions !== undefined) return { conditions: r.conditions as object[], expression: null };
  return {};
}

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
type Change = { workspaceId: string; requestId: string; actor: Actor };

/** What the audit trail keeps of a rule: all of it (a rule holds no secret). */
const auditFields = (r: RuleRecord) => ({
  name: r.name,
  action: r.action,
  mode: r.mode,
  priority: r.priority,
  enabled: r.enabled,
  conditions: r.conditions,
  expression: r.expression,
});

function auditRule(
  tx: Tx,
  a: Change,
  type: "audit.rule.created" | "audit.rule.updated" | "audit.rule.deleted",
  before: RuleRecord | null,
  after: RuleRecord | null,
) {
  const r = (after ?? before)!;
  return recordAudit(tx, {
    workspaceId: a.workspaceId,
    requestId: a.requestId,
    type,
    actor: a.actor,
    target: { kind: "rule", id: r.id, label: r.name },
    before: before && auditFields(before),
    after: after && auditFields(after),
    index: { rule: r.id },
  });
}

export async function createRule(
  db: Db,
  a: Change & { rule: Required<Pick<RuleChanges, "name" | "action">> & RuleChanges },
): Promise<RuleRecord> {
  const max = maxRulesPerWorkspace();
  // A count-then-insert can overshoot by a few under concurrent creates; the limit is a guard, not a quota.
  if ((await db.rule.count({ where: { workspaceId: a.workspaceId } })) >= max) {
    throw new AppError("CONFLICT", `This workspace already has the maximum of ${max} rules; delete one first.`);
  }
  return db.$transaction(async (tx) => {
    await assertListsExist(tx, a.workspaceId, a.rule.expression);
    const row = await tx.rule.create({
      data: {
        id: sortableId("rule"),
        workspaceId: a.workspaceId,
        name: a.rule.name,
        action: a.rule.action,
        mode: a.rule.mode ?? "active",
        priority: a.rule.priority ?? 0,
        enabled: a.rule.enabled ?? true,
        ...formData(a.rule),
      },
    });
    await auditRule(tx, a, "audit.rule.created", null, toRecord(row));
    return toRecord(row);
  });
}

export async function updateRuleOrThrow(db: Db, a: Change & { id: string; changes: RuleChanges }): Promise<RuleRecord> {
  const { conditions, expression, ...rest } = a.changes;
  return db.$transaction(async (tx) => {
    const before = await tx.rule.findFirst({ where: { id: a.id, workspaceId: a.workspaceId } });
    if (!before) throw new AppError("NOT_FOUND", `No rule ${a.id} in this workspace.`);
    await assertListsExist(tx, a.workspaceId, expression);
    const where = { id: before.id, workspaceId: a.workspaceId };
    // Conditional, so a rule deleted meanwhile is a 404 and never a failed update.
    const res = await tx.rule.updateMany({ where, data: { ...rest, ...formData({ conditions, expression }) } });
    const after = res.count === 1 ? await tx.rule.findFirst({ where }) : null;
    if (!after) throw new AppError("NOT_FOUND", `No rule ${a.id} in this workspace.`);
    await auditRule(tx, a, "audit.rule.updated", toRecord(before), toRecord(after));
    return toRecord(after);
  });
}

export async function deleteRuleOrThrow(db: Db, a: Change & { id: string }): Promise<{ id: string; deleted: true }> {
  await db.$transaction(async (tx) => {
    const before = await tx.rule.findFirst({ where: { id: a.id, workspaceId: a.workspaceId } });
    const res = await tx.rule.deleteMany({ where: { id: a.id, workspaceId: a.workspaceId } });
    if (!before || res.count === 0) throw new AppError("NOT_FOUND", `No rule ${a.id} in this workspace.`);
    await auditRule(tx, a, "audit.rule.deleted", toRecord(before), null);
  });
  return { id: a.id, deleted: true };
}
