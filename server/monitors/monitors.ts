// Monitors of a workspace: create, read, change, delete. Every query filters on the workspace (another workspace's
// monitor is not found); every change is an audit event (audit.monitor.*) in the same transaction. What is decided
// from the request alone (a bad target, a check that needs a name given an IP, an interval or count the plan does
// not allow, a target on a private network) is refused before anything is written.
import { recordAudit, type Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { refuseUnknownCursor } from "../pages";
import { sortableId } from "../ids";
import { assertPublicTargetOrThrow, looseIpv4Problem, spellsNonPublicIpv4 } from "../net";
import type { Entitlements } from "../plans/catalog";
import { CHECKS, targetFree } from "./checks";
import type { CheckType } from "./checks/types";
import { INTERVAL_MS, INTERVALS, monitorLimits, type MonitorInterval } from "./limits";
import type { EmailAlertsSetting } from "./mailer/outbox";
import { toMonitorRecord, type MonitorRow } from "./records";
import { DEFAULT_TLS_EXPIRY_DAYS, type MonitorCheck } from "./schemas";
import { firstRunAt } from "./schedule";
import { parseMonitorTarget } from "./target";
import { PROJECT_NAME, PROJECT_NAME_RULE } from "../projects/names";
import { holdLatestDefaultScan, latestDefaultPackages } from "../projects/store";

import type { Tx } from "./tx";
export type { Tx };
export type Change = { workspaceId: string; requestId: string; actor: Actor; entitlements: Entitlements };

export interface MonitorFields {
  name?: string | null;
  target: string;
  checks: MonitorCheck[];
  interval: MonitorInterval;
  thresholds?: { tls_expiry_days?: number[] };
  email_alerts?: EmailAlertsSetting;
}

/** 400 naming the first chosen recipient who is not a member of the workspace. */
async function vetRecipientsOrThrow(db: Db | Tx, workspaceId: string, setting: EmailAlertsSetting | undefined) {
  if (!setting || setting.recipients === "owners") return;
  const members = await db.member.findMany({
    where: { workspaceId, email: { in: setting.recipients } },
    select: { email: true },
  });
  const known = new Set(members.map((m) => m.email.toLowerCase()));
  const stranger = setting.recipients.find((e) => !known.has(e));
  if (stranger)
    throw new AppError(
      "INVALID_REQUEST",
      `email_alerts.recipients: ${stranger} is not a member of this workspace; invite them first, or send "owners".`,
    );
}

/** The interval name of a length ("24h"). */
const intervalName = (ms: number) => INTERVALS.find((i) => INTERVAL_MS[i] === ms) ?? `${ms / 3_600_000}h`;

/**
 * A project check (checks/project.ts) runs alone, on a project of the workspace that has a scan of its default ref
 * (what it re-evaluates); its target is the project's name as it is, never read as a host. Returns that name.
 */
async function vetProjectOrThrow(db: Db | Tx, workspaceId: string, f: MonitorFields): Promise<string> {
  if (f.checks.length > 1)
    throw new AppError("INVALID_REQUEST", "The project check runs alone: create another monitor for the other checks.");
  const name = f.target.trim();
  if (!PROJECT_NAME.test(name))
    throw new AppError("INVALID_REQUEST", `target must be a project's name (${PROJECT_NAME_RULE}).`);
  if (!(await latestDefaultPackages(db as Db, workspaceId, name))) throw noStoredScan(name);
  return name;
}

const noStoredScan = (name: string) =>
  new AppError(
    "INVALID_REQUEST",
    `Project ${name} has no stored scan of its default ref in this workspace: scan it first with POST /vulnerabilities/scan?project=${name}.`,
  );

/**
 * The project check again inside the transaction that writes the monitor, holding the project's latest default-ref
 * scan until it commits: checked only before, a deletion of the project committed in between left a monitor watching
 * nothing (the deletion had looked for the project's monitors before this one existed). Held, a deletion either
 * committed first (no scan left: 400, nothing written) or waits for this commit and then deletes the new monitor with
 * the project (./project-deletion.ts).
 */
async function holdProjectOrThrow(tx: Tx, workspaceId: string, name: string) {
  if (!(await holdLatestDefaultScan(tx, workspaceId, name))) throw noStoredScan(name);
}

const watchesProject = (checks: readonly { type: string }[]) => checks.some((c) => c.type === "project");

/** The units of a project monitor's next run (its project's package versions), for the record's units_per_run. */
async function projectUnitsOf(db: Db | Tx, row: MonitorRow): Promise<number | undefined> {
  if (!watchesProject(row.checks as MonitorCheck[])) return undefined;
  return (await latestDefaultPackages(db as Db, row.workspaceId, row.target))?.packages.length ?? 0;
}

const recordOf = async (db: Db | Tx, row: MonitorRow) => toMonitorRecord(row, await projectUnitsOf(db, row));

function vetIntervalOrThrow(f: MonitorFields, entitlements: Entitlements) {
  const { minIntervalMs } = monitorLimits(entitlements);
  if (INTERVAL_MS[f.interval] < minIntervalMs)
    throw new AppError(
      "CAPABILITY_REQUIRED",
      `An interval of ${f.interval} is shorter than this plan allows (every ${intervalName(minIntervalMs)} at most often); Suite Business and above run monitors hourly.`,
    );
}

/** The checks' and the plan's rules on a monitor's fields; returns the normalised target. */
async function vetOrThrow(
  f: MonitorFields,
  entitlements: Entitlements,
  db: Db,
  workspaceId: string,
  storedTarget?: string,
): Promise<string> {
  vetIntervalOrThrow(f, entitlements);
  if (watchesProject(f.checks)) return vetProjectOrThrow(db, workspaceId, f);
  const labelAllowed = targetFree(f.checks);
  const target = parseMonitorTarget(f.target, labelAllowed, { stored: f.target === storedTarget });
  const spelled = target ? null : looseIpv4Problem(f.target);
  if (spelled) {
    // "0x7f.1" or "2130706433" is refused as every spelling of a private target is (400 TARGET_FORBIDDEN); where
    // private targets are allowed (tests, local development), as any other spelling that is no address as written.
    if (!labelAllowed && spellsNonPublicIpv4(f.target)) await assertPublicTargetOrThrow(f.target);
    throw new AppError("INVALID_REQUEST", `target ${spelled}.`);
  }
  if (!target)
    throw new AppError(
      "INVALID_REQUEST",
      labelAllowed
        ? "target must be a host, URL or a label for the project the packages belong to (1 to 200 letters, digits and . _ @ / : + # ~ -, as in github.com/acme/shop)."
        : "target must be a host name, domain or IP address (optionally with :port) or an absolute http(s) URL without credentials.",
    );
  const named = f.checks.filter((c) => CHECKS[c.type as CheckType].needsName).map((c) => c.type);
  if (target.address && named.length)
    throw new AppError(
      "INVALID_REQUEST",
      `The ${named.join(", ")} ${named.length === 1 ? "check needs" : "checks need"} a domain name as the target, not an IP address.`,
    );
  // The lookups vet every connection again; this refuses a private target before it is stored (SSRF guard). A
  // monitor of target-free checks never connects to its target, which may be a label.
  if (!labelAllowed) await assertPublicTargetOrThrow(target.value);
  return target.value;
}

const auditFields = (r: MonitorRow) => ({
  name: r.name,
  target: r.target,
  checks: r.checks,
  interval: r.interval,
  thresholds: r.thresholds,
  status: r.status,
  email_alerts: r.emailAlerts ?? null,
});

export function auditMonitor(
  tx: Tx | Db,
  a: { workspaceId: string; requestId: string | null; actor: Actor },
  type:
    | "audit.monitor.created"
    | "audit.monitor.updated"
    | "audit.monitor.deleted"
    | "audit.monitor.paused"
    | "audit.monitor.resumed",
  row: MonitorRow,
  x: { before?: Record<string, unknown> | null; after?: Record<string, unknown> | null },
) {
  return recordAudit(tx as Db, {
    workspaceId: a.workspaceId,
    requestId: a.requestId,
    type,
    actor: a.actor,
    target: { kind: "monitor", id: row.id, label: row.name ?? row.target },
    before: x.before ?? null,
    after: x.after ?? null,
  });
}

/** Locks the workspace row for the transaction, so two creations at once are counted against the limit in turn. */
const lockWorkspace = (tx: Tx, workspaceId: string) =>
  tx.$queryRawUnsafe(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, workspaceId);

/**
 * One watch per project: a second project monitor of the same project would alert twice for every finding, and the
 * Projects page's watch toggle shows and stops one. 409 CONFLICT naming the monitor that watches it (`except` is the
 * monitor being changed). Called with the workspace row locked, so two creations at once are seen in turn.
 */
async function assertProjectUnwatchedOrThrow(tx: Tx, workspaceId: string, project: string, except?: string) {
  const same = await tx.monitor.findMany({
    where: { workspaceId, target: project, ...(except ? { id: { not: except } } : {}) },
    select: { id: true, checks: true },
  });
  const watching = same.find((m) => watchesProject(m.checks as { type: string }[]));
  if (watching)
    throw new AppError(
      "CONFLICT",
      `Project ${project} is already watched by monitor ${watching.id}; change or delete that monitor instead.`,
    );
}

export async function createMonitor(db: Db, a: Change & { monitor: MonitorFields; now?: Date }) {
  const target = await vetOrThrow(a.monitor, a.entitlements, db, a.workspaceId);
  await vetRecipientsOrThrow(db, a.workspaceId, a.monitor.email_alerts);
  const now = a.now ?? new Date();
  const { monitors: limit } = monitorLimits(a.entitlements);
  const row = await db.$transaction(async (tx) => {
    await lockWorkspace(tx, a.workspaceId);
    if (watchesProject(a.monitor.checks)) {
      await holdProjectOrThrow(tx, a.workspaceId, target);
      await assertProjectUnwatchedOrThrow(tx, a.workspaceId, target);
    }
    const held = await tx.monitor.count({ where: { workspaceId: a.workspaceId } });
    if (held >= limit)
      throw new AppError(
        "MONITOR_LIMIT_REACHED",
        `This workspace's plan includes ${limit} monitor${limit === 1 ? "" : "s"} and all are in use; delete one or upgrade the plan.`,
      );
    const id = sortableId("mon");
    const row = await tx.monitor.create({
      data: {
        id,
        workspaceId: a.workspaceId,
        name: a.monitor.name ?? null,
        target,
        checks: a.monitor.checks as object,
        interval: a.monitor.interval,
        thresholds: { tls_expiry_days: a.monitor.thresholds?.tls_expiry_days ?? DEFAULT_TLS_EXPIRY_DAYS },
        ...(a.monitor.email_alerts ? { emailAlerts: a.monitor.email_alerts as object } : {}),
        nextRunAt: firstRunAt(id, a.monitor.interval, now),
      },
    });
    await auditMonitor(tx, a, "audit.monitor.created", row, { after: auditFields(row) });
    return row;
  });
  return recordOf(db, row);
}

export async function findMonitorOrThrow(db: Db | Tx, workspaceId: string, id: string): Promise<MonitorRow> {
  const row = await db.monitor.findFirst({ where: { id, workspaceId } });
  if (!row) throw new AppError("NOT_FOUND", `No monitor ${id} in this workspace.`);
  return row;
}

export async function getMonitorOrThrow(db: Db, workspaceId: string, id: string) {
  return recordOf(db, await findMonitorOrThrow(db, workspaceId, id));
}

/** Monitors oldest first; `cursor` is the previous page's `next_cursor` (the last id shown). */
export async function listMonitors(db: Db, workspaceId: string, page: { limit: number; cursor?: string }) {
  await refuseUnknownCursor(page.cursor, (id) =>
    db.monitor.findFirst({ where: { id, workspaceId }, select: { id: true } }),
  );
  const rows = await db.monitor.findMany({
    where: { workspaceId, ...(page.cursor ? { id: { gt: page.cursor } } : {}) },
    orderBy: { id: "asc" },
    take: page.limit + 1,
  });
  const shown = rows.slice(0, page.limit);
  return {
    items: await Promise.all(shown.map((row) => recordOf(db, row))),
    next_cursor: rows.length > page.limit ? shown[shown.length - 1]!.id : null,
  };
}

/** A value as text whatever its objects' key order (a stored check comes back from JSONB with its keys reordered). */
function canonicalText(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalText).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .map(([k, x]) => `${JSON.stringify(k)}:${canonicalText(x)}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

/** The same checks with the same options, in any order. */
function sameChecks(a: MonitorCheck[], b: MonitorCheck[]): boolean {
  const x = a.map(canonicalText).sort();
  const y = b.map(canonicalText).sort();
  return x.length === y.length && x.every((t, i) => t === y[i]);
}

export async function updateMonitorOrThrow(
  db: Db,
  a: Change & { id: string; changes: Partial<MonitorFields>; now?: Date },
) {
  const now = a.now ?? new Date();
  const before = await findMonitorOrThrow(db, a.workspaceId, a.id);
  const merged: MonitorFields = {
    target: a.changes.target ?? before.target,
    checks: a.changes.checks ?? (before.checks as MonitorCheck[]),
    interval: a.changes.interval ?? (before.interval as MonitorInterval),
  };
  const target = await vetOrThrow(merged, a.entitlements, db, a.workspaceId, before.target);
  await vetRecipientsOrThrow(db, a.workspaceId, a.changes.email_alerts);
  const row = await db.$transaction(async (tx) => {
    // A project watch is unique in its workspace: the workspace first, in the order a creation and the plan's
    // limit take it, then the monitor.
    if (watchesProject(merged.checks)) await lockWorkspace(tx, a.workspaceId);
    // Locked before it is read: a deletion that committed meanwhile makes this 404, not a failed update (500).
    await tx.$queryRawUnsafe(
      `SELECT 1 FROM "Monitor" WHERE "id" = $1 AND "workspaceId" = $2 FOR UPDATE`,
      a.id,
      a.workspaceId,
    );
    const current = await findMonitorOrThrow(tx, a.workspaceId, a.id);
    // Checks sent again as they are (the dashboard's form sends every field with a new interval or name) are not new.
    const retarget =
      target !== current.target ||
      (a.changes.checks !== undefined && !sameChecks(a.changes.checks, current.checks as MonitorCheck[]));
    // Only a change of what is watched can make a second watch: a watch saved before the rule keeps its other edits.
    if (retarget && watchesProject(merged.checks)) {
      await holdProjectOrThrow(tx, a.workspaceId, target);
      await assertProjectUnwatchedOrThrow(tx, a.workspaceId, target, current.id);
    }
    const after = await tx.monitor.update({
      where: { id: current.id },
      data: {
        ...(a.changes.name !== undefined ? { name: a.changes.name } : {}),
        target,
        checks: merged.checks as object,
        interval: merged.interval,
        ...(a.changes.thresholds?.tls_expiry_days
          ? { thresholds: { tls_expiry_days: a.changes.thresholds.tls_expiry_days } }
          : {}),
        ...(a.changes.email_alerts ? { emailAlerts: a.changes.email_alerts as object } : {}),
        // A new interval starts a new phase; a new target or new checks start from a fresh baseline.
        ...(merged.interval !== current.interval ? { nextRunAt: firstRunAt(current.id, merged.interval, now) } : {}),
        ...(retarget ? { lastStates: {} } : {}),
      },
    });
    // Alerts about the old target or checks cannot be resolved by the new ones: they close with the baseline.
    if (retarget)
      await tx.monitorAlert.updateMany({ where: { monitorId: current.id, open: true }, data: { open: false } });
    await auditMonitor(tx, a, "audit.monitor.updated", after, {
      before: auditFields(current),
      after: auditFields(after),
    });
    return after;
  });
  return recordOf(db, row);
}

export async function deleteMonitorOrThrow(db: Db, a: Change & { id: string }) {
  const pausedLeft = await db.$transaction((tx) => deleteMonitorInOrThrow(tx, a));
  // The place it frees goes to the oldest monitor a smaller plan paused, as a plan change would give it.
  if (pausedLeft > 0) await applyMonitorLimit(db, a);
  return { id: a.id, deleted: true as const };
}

/** DELETE /monitors/{id}'s writes, in the caller's transaction; answers how many of the workspace's monitors are paused. */
async function deleteMonitorInOrThrow(tx: Tx, a: Change & { id: string }): Promise<number> {
  // The monitor's row first, as a run's states, a change and an unsubscribe take it: its runs, alerts and emails
  // are deleted only once nothing else holds it, so a run finishing meanwhile leaves no alert or email behind and
  // a change of its alerts cannot wait on this deletion while it waits on the change (a deadlock).
  await tx.$queryRawUnsafe(
    `SELECT 1 FROM "Monitor" WHERE "id" = $1 AND "workspaceId" = $2 FOR UPDATE`,
    a.id,
    a.workspaceId,
  );
  const before = await findMonitorOrThrow(tx, a.workspaceId, a.id);
  await tx.monitorRun.deleteMany({ where: { monitorId: before.id } });
  await tx.monitorAlert.deleteMany({ where: { monitorId: before.id } });
  // Its queued alert emails go with it: nothing is sent about a monitor that no longer exists.
  await tx.monitorEmail.deleteMany({ where: { monitorId: before.id } });
  // Counted, not `delete`: a concurrent deletion that committed after the read above leaves nothing to delete,
  // which is 404 (and this transaction's deletions roll back), not a failed delete (500).
  const deleted = await tx.monitor.deleteMany({ where: { id: before.id, workspaceId: a.workspaceId } });
  if (deleted.count === 0) throw new AppError("NOT_FOUND", `No monitor ${a.id} in this workspace.`);
  await auditMonitor(tx, a, "audit.monitor.deleted", before, { before: auditFields(before) });
  return tx.monitor.count({ where: { workspaceId: a.workspaceId, status: "paused" } });
}

/**
 * Applies the monitor limit after a plan change, as keys follow theirs: the oldest monitors up to the limit stay
 * (or become) active, the rest pause; a kept monitor whose interval is shorter than the plan now allows runs at
 * the plan's shortest. A resumed monitor starts a new phase from now. Each change is audited.
 */
export async function applyMonitorLimit(
  db: Db,
  a: { workspaceId: string; entitlements: Entitlements; actor: Actor; requestId?: string | null; now?: Date },
): Promise<{ active: string[]; paused: string[] }> {
  const now = a.now ?? new Date();
  const { monitors: limit, minIntervalMs } = monitorLimits(a.entitlements);
  return db.$transaction(async (tx) => {
    await lockWorkspace(tx, a.workspaceId);
    const rows = await tx.monitor.findMany({
      where: { workspaceId: a.workspaceId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    const keep = rows.slice(0, limit);
    const pause = rows.slice(limit);
    const audit = { workspaceId: a.workspaceId, requestId: a.requestId ?? null, actor: a.actor };
    for (const m of pause.filter((m) => m.status === "active")) {
      await tx.monitor.update({ where: { id: m.id }, data: { status: "paused" } });
      await auditMonitor(tx, audit, "audit.monitor.paused", m, {
        before: { status: "active" },
        after: { status: "paused" },
      });
    }
    for (const m of keep) {
      // A kept monitor runs no more often than the plan allows: a shorter interval is raised to the plan's shortest.
      const tooShort = INTERVAL_MS[m.interval as MonitorInterval] < minIntervalMs;
      const interval = tooShort
        ? INTERVALS.find((i) => INTERVAL_MS[i] >= minIntervalMs)!
        : (m.interval as MonitorInterval);
      if (m.status === "paused") {
        await tx.monitor.update({
          where: { id: m.id },
          data: { status: "active", interval, nextRunAt: firstRunAt(m.id, interval, now) },
        });
        await auditMonitor(tx, audit, "audit.monitor.resumed", m, {
          before: { status: "paused", interval: m.interval },
          after: { status: "active", interval },
        });
      } else if (tooShort) {
        await tx.monitor.update({
          where: { id: m.id },
          data: { interval, nextRunAt: firstRunAt(m.id, interval, now) },
        });
        await auditMonitor(tx, audit, "audit.monitor.updated", m, {
          before: { interval: m.interval },
          after: { interval },
        });
      }
    }
    return { active: keep.map((m) => m.id), paused: pause.map((m) => m.id) };
  });
}

/**
 * Deletes the monitors watching a project (checks ["project"], its name the target), when the project is deleted:
 * such a monitor rescans the project's stored package list and has nothing left to watch, so it would only fail every
 * run and alert after three. Each goes as DELETE /monitors/{id} takes it (runs, alerts, queued emails, an audit
 * event), in the caller's transaction, the one that deletes the project's scans (./project-deletion.ts): a failure
 * leaves the project and its monitors as they were, so the request can be retried. One deleted meanwhile is already
 * gone. Answers the ids deleted and how many of the workspace's monitors are paused (the caller, once committed,
 * gives the freed places to them: `applyMonitorLimit`).
 */
export async function deleteProjectMonitors(
  tx: Tx,
  a: Change & { project: string },
): Promise<{ deleted: string[]; pausedLeft: number }> {
  const rows = await tx.monitor.findMany({
    where: { workspaceId: a.workspaceId, target: a.project },
    select: { id: true, checks: true },
    orderBy: { id: "asc" },
  });
  const watching = rows.filter((r) => watchesProject(r.checks as { type: string }[]));
  const deleted: string[] = [];
  let pausedLeft = 0;
  for (const m of watching) {
    try {
      // Its NOT_FOUND is thrown before any write of it (its row lock is taken first), so the transaction goes on.
      pausedLeft = await deleteMonitorInOrThrow(tx, { ...a, id: m.id });
      deleted.push(m.id);
    } catch (err) {
      if (!(err instanceof AppError && err.appCode === "NOT_FOUND")) throw err;
    }
  }
  return { deleted, pausedLeft };
}
