// One run of a monitor: the units of all its checks reserved at once with the ladder's step for a job's payer
// (server/api/ladder.ts reserveJobUnits; what each check costs is server/api/charging.ts monitorCheckUnits: one per
// check whatever its options, a project check one per package version of the project's latest list, read before the
// reservation; both handed in by the API layer, ../bulk/procedures.ts), then each check's lookups run as the
// metered lookups they are, through the
// bulk path (bulkProcedures(): the same procedure, input rules, SSRF guard and history) under the run's reservation
// (`prepaid`), never charged again. The check's unit goes on the history entry of its first admitted lookup; its
// other lookups are entries of 0 units, so a month's entries still add up to the units used. A check gives its unit
// back when none of its lookups was admitted (all refused before the point where a request would have reserved), or
// when the lookup that carried it was not answered (its source unavailable: that entry says it gave the unit back):
// charging.ts monitorCheckCharge.
// A run the allowance cannot pay is recorded as skipped, with one alert while that lasts. Each check's state is
// compared with the previous run's (./alerts.ts); a check that failed this time keeps its previous state, and one
// that keeps failing alerts once (./failing.ts).
import type { Principal } from "../auth/principal";
import { bulkProcedures, jobCharging, type Prepaid } from "../bulk/procedures";
import type { Db } from "../db/client";
import { AppError, toErrorBody } from "../errors";
import { giveBackHistory } from "../history/history";
import { sortableId } from "../ids";
import { eventRetentionDays } from "../maintenance/purge";
import { logger } from "../operate/log";
import { refundUnits } from "../quota/adjust";
import { periodStart } from "../quota/period";
import type { Payer, QuotaState } from "../quota/reserve";
import { workspaceEntitlements } from "../workspaces/workspaces";
import { alertOnChange, alertOnSkip, resolveSkip, type AlertRow } from "./alerts";
import { CHECKS, targetFree } from "./checks";
import { alertOnFailure, resolveFailure } from "./failing";
import { alertOnFindings } from "./finding-alerts";
import type { CheckOptions, CheckSpec, CheckType, Severity } from "./checks/types";
import type { Tx } from "./monitors";
import { checksOf, thresholdsOf, type MonitorRow, type StoredStates } from "./records";
import { parseMonitorTarget } from "./target";

export interface CheckResult {
  severity: Severity | null;
  state: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  units: number;
}

export interface RunOutcome {
  runId: string;
  status: "completed" | "skipped" | "not_run";
  alerts: AlertRow[];
  /** The workspace's allowance after a completed run paid its checks (and took back what it gave back). */
  quota?: QuotaState;
}

/**
 * Keeps a monitor's timeline as long as its workspace keeps events (the longer of 90 days and the history window):
 * older runs, closed alerts and emails no longer pending go when the monitor next runs; an open alert stays while its
 * condition holds.
 */
async function pruneTimeline(db: Db, monitorId: string, plans: readonly string[], now: Date) {
  const cutoff = new Date(now.getTime() - eventRetentionDays(plans) * 86_400_000);
  await db.monitorRun.deleteMany({ where: { monitorId, startedAt: { lt: cutoff } } });
  await db.monitorAlert.deleteMany({ where: { monitorId, open: false, createdAt: { lt: cutoff } } });
  await db.monitorEmail.deleteMany({ where: { monitorId, status: { not: "pending" }, createdAt: { lt: cutoff } } });
}

/**
 * A run whose monitor was deleted while its checks ran (a DELETE that took the row first): its record goes, its units
 * still held are given back (nothing it found is kept or alerted), and a run asked for now is 404 NOT_FOUND, as the
 * monitor is, instead of a failed read of the deleted row (500, with its units kept).
 */
async function forgetDeletedRun(
  db: Db,
  monitor: MonitorRow,
  a: { runId: string; now: Date; units: number; payer?: Payer; manual?: boolean; lookups: string[] },
): Promise<RunOutcome> {
  await db.monitorRun.deleteMany({ where: { id: a.runId } });
  const reason = `Monitor ${monitor.id} run ${a.runId}: the monitor was deleted while the run was under way`;
  // Its lookups' history entries give their units back with it (the month's entries add up to the units used).
  await giveBackHistory(db, { workspaceId: monitor.workspaceId, requestIds: a.lookups, reason });
  if (a.units > 0)
    await refundUnits(db, {
      workspaceId: monitor.workspaceId,
      periodStart: periodStart(a.now),
      units: a.units,
      requestId: a.runId,
      endpoint: "monitor.refund",
      apiKeyId: a.payer?.apiKeyId ?? null,
      userId: a.payer?.userId ?? null,
      reason,
    });
  if (a.manual)
    throw new AppError(
      "NOT_FOUND",
      `No monitor ${monitor.id} in this workspace: it was deleted while this run was under way; nothing was charged.`,
    );
  return { runId: a.runId, status: "not_run", alerts: [] };
}

/** Runs `work` in a transaction holding the monitor's row lock (alerts of one monitor are decided one run at a time). */
function underMonitorLock<T>(db: Db, monitorId: string, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(`SELECT 1 FROM "Monitor" WHERE "id" = $1 FOR UPDATE`, monitorId);
      return work(tx);
    },
    { timeout: 30_000 },
  );
}

interface PlannedCheck {
  check: ReturnType<typeof checksOf>[number];
  spec: CheckSpec;
  inputs: unknown[];
  /** What the check's first admitted lookup carries: one unit, or what its `prepare` says (a project's packages). */
  units: number;
  error: CheckResult["error"];
}

/** Each check's lookups and units for this run, read before the reservation (checks/types.ts `prepare`). */
async function planChecks(db: Db, monitor: MonitorRow): Promise<PlannedCheck[]> {
  const target = parseMonitorTarget(monitor.target, targetFree(checksOf(monitor)), { stored: true })!;
  const planned: PlannedCheck[] = [];
  for (const check of checksOf(monitor)) {
    const spec = CHECKS[check.type as CheckType];
    const { monitorCheckUnits } = jobCharging();
    if (!spec.prepare) {
      const inputs = spec.calls(target, check as CheckOptions);
      planned.push({ check, spec, inputs, units: monitorCheckUnits(), error: null });
      continue;
    }
    try {
      const prepared = await spec.prepare(db, { workspaceId: monitor.workspaceId, target: monitor.target });
      planned.push({ check, spec, inputs: prepared.inputs, units: monitorCheckUnits(prepared), error: null });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const { body } = toErrorBody(err);
      planned.push({
        check,
        spec,
        inputs: [],
        units: monitorCheckUnits({ error: err }),
        error: { code: body.error.code, message: body.error.message },
      });
    }
  }
  return planned;
}

/** The monitor acts as its workspace, with the plans it has now (a downgrade refuses what the plan lost). */
function principalFor(workspaceId: string, monitorId: string, entitlements: Principal["entitlements"]): Principal {
  return {
    kind: "member",
    userId: "",
    email: `monitor:${monitorId}`,
    workspaceId,
    role: "member",
    entitlements,
    lookupsBlocked: null,
  };
}

/**
 * Runs the monitor now. `manual`: a run asked for through the API, which answers 402 QUOTA_EXCEEDED instead of
 * recording a skip, and 409 CONFLICT for a paused monitor.
 */
export async function runMonitor(
  db: Db,
  monitorId: string,
  opts: { now?: Date; manual?: boolean; payer?: Payer } = {},
): Promise<RunOutcome> {
  const now = opts.now ?? new Date();
  const runId = sortableId("run");
  const monitor = await db.monitor.findUnique({ where: { id: monitorId } });
  if (!monitor) return { runId, status: "not_run", alerts: [] };
  if (monitor.status !== "active") {
    if (opts.manual)
      throw new AppError("CONFLICT", "This monitor is paused: the plan holds fewer monitors. Upgrade to run it.");
    return { runId, status: "not_run", alerts: [] };
  }
  const planned = await planChecks(db, monitor);
  const units = planned.reduce((n, p) => n + p.units, 0);
  const entitlements = await workspaceEntitlements(db, monitor.workspaceId);
  const reserved = await bulkProcedures().reserveJob(db, {
    workspaceId: monitor.workspaceId,
    units,
    limit: entitlements.monthlyUnits,
    requestId: runId,
    endpoint: "monitor.run",
    // A run asked for through the API is the asking key's or member's, as a request is; a scheduled one is nobody's.
    apiKeyId: opts.payer?.apiKeyId ?? null,
    userId: opts.payer?.userId ?? null,
    now,
  });
  if (!reserved) {
    const needs = `The run needs ${units} lookup unit${units === 1 ? "" : "s"} and the monthly allowance of ${entitlements.monthlyUnits} has not that many left`;
    // Asked for now: refused, as any request the allowance cannot pay (nothing was run or recorded).
    if (opts.manual)
      throw new AppError(
        "QUOTA_EXCEEDED",
        `${needs}; nothing was run or charged. The allowance resets at the start of the next UTC month.`,
      );
    const reason = `${needs}; it was skipped and nothing was charged. Runs resume when the allowance resets at the start of the next UTC month.`;
    await db.monitorRun.create({
      data: {
        id: runId,
        monitorId,
        workspaceId: monitor.workspaceId,
        status: "skipped",
        reason,
        startedAt: now,
        finishedAt: now,
      },
    });
    const alert = await underMonitorLock(db, monitorId, async (tx) => {
      await tx.monitor.update({ where: { id: monitorId }, data: { lastRunAt: now } });
      return alertOnSkip(tx, monitor, { now, runId, reason });
    });
    await pruneTimeline(db, monitorId, entitlements.plans, now);
    return { runId, status: "skipped", alerts: alert ? [alert] : [] };
  }

  const principal = principalFor(monitor.workspaceId, monitor.id, entitlements);
  const results: Record<string, CheckResult> = {};
  let refunded = 0;
  let unanswered = 0;
  /** The request ids of the run's lookups, as their history entries are recorded. */
  const lookups: string[] = [];
  for (const { check, spec, inputs, units: checkUnits, error: planError } of planned) {
    if (planError) {
      results[check.type] = { severity: null, state: null, error: planError, units: 0 };
      continue;
    }
    const answers: unknown[] = [];
    let error: CheckResult["error"] = null;
    const charge = jobCharging().monitorCheckCharge(checkUnits);
    for (const input of inputs) {
      const prepaid: Prepaid = { units: charge.next(), admitted: false };
      try {
        answers.push(await bulkProcedures().runProcedure({ db, procedure: spec.procedure, input, principal, prepaid }));
      } catch (err) {
        const { body, status } = toErrorBody(err);
        if (status >= 500 && status !== 503)
          logger().error({ err, monitorId, check: check.type }, "monitor check failed");
        error ??= { code: body.error.code, message: body.error.message };
      }
      if (prepaid.requestId) lookups.push(prepaid.requestId);
      // The check's unit rides on its first admitted lookup. When that lookup gave it back (its source did not
      // answer: server/api/charging.ts givenBackOf, its history entry says so), the check's unit goes back with the
      // run's refund below and its other lookups carry none.
      charge.settle(prepaid);
    }
    const back = charge.givenBack();
    if (back > 0) {
      refunded += back;
      unanswered++;
    }
    const charged = charge.charged();
    if (error) results[check.type] = { severity: null, state: null, error, units: charged };
    else {
      const { state, severity } = spec.state(answers, { thresholds: thresholdsOf(monitor), options: check });
      results[check.type] = { severity, state, error: null, units: charged };
    }
  }
  let quota: QuotaState = reserved;
  if (refunded > 0) {
    const used = await refundUnits(db, {
      workspaceId: monitor.workspaceId,
      periodStart: periodStart(now),
      units: refunded,
      requestId: runId,
      endpoint: "monitor.refund",
      apiKeyId: opts.payer?.apiKeyId ?? null,
      userId: opts.payer?.userId ?? null,
      reason: `Monitor ${monitor.id} run ${runId}: ${unanswered} check${unanswered === 1 ? "" : "s"} not answered (refused before ${unanswered === 1 ? "it" : "they"} ran, or no source answered)`,
    });
    quota = { ...reserved, used, remaining: Math.max(0, reserved.limit - used) };
  }

  await db.monitorRun.create({
    data: {
      id: runId,
      monitorId,
      workspaceId: monitor.workspaceId,
      status: "completed",
      units: units - refunded,
      results: results as object,
      startedAt: now,
      finishedAt: new Date(Math.max(Date.now(), now.getTime())),
    },
  });
  // The comparison reads the states as they are under the monitor's row lock: a run asked for by hand while a
  // scheduled one finishes compares with what that one stored, so a change is alerted once.
  const alerts = await underMonitorLock(db, monitorId, async (tx) => {
    const fresh = await tx.monitor.findUnique({ where: { id: monitorId }, select: { lastStates: true } });
    // Deleted while its checks ran (the deletion held the row first): nothing is kept of this run.
    if (!fresh) return null;
    const previous = (fresh.lastStates as StoredStates | null) ?? {};
    const states: StoredStates = { ...previous };
    const raised: AlertRow[] = [];
    const skipResolved = await resolveSkip(tx, monitor, { now, runId });
    if (skipResolved) raised.push(skipResolved);
    for (const [check, r] of Object.entries(results)) {
      if (r.error) {
        const kept = previous[check]?.state ?? null;
        const failing = await alertOnFailure(tx, monitor, check, { now, runId, error: r.error, kept });
        if (failing) raised.push(failing);
        continue;
      }
      const back = await resolveFailure(tx, monitor, check, { now, runId });
      if (back) raised.push(back);
      if (!r.state || !r.severity) continue;
      const spec = CHECKS[check as CheckType];
      const own = { severity: r.severity, state: r.state };
      const cur = spec.keep ? spec.keep(previous[check], own) : own;
      if (spec.perFinding)
        raised.push(...(await alertOnFindings(tx, monitor, check, previous[check], cur, { now, runId })));
      else {
        const alert = await alertOnChange(tx, monitor, check, previous[check], cur, { now, runId });
        if (alert) raised.push(alert);
      }
      states[check] = cur;
    }
    await tx.monitor.update({ where: { id: monitorId }, data: { lastStates: states as object, lastRunAt: now } });
    return raised;
  });
  if (!alerts)
    return forgetDeletedRun(db, monitor, {
      runId,
      now,
      units: units - refunded,
      payer: opts.payer,
      manual: opts.manual,
      lookups,
    });
  await pruneTimeline(db, monitorId, entitlements.plans, now);
  return { runId, status: "completed", alerts, quota };
}
