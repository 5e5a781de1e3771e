// A check that cannot run (its resolver down, its source timing out or unavailable) keeps its previous state, so a
// dead monitor would look like a healthy one. After FAILING_AFTER_RUNS failed runs in a row it raises one
// `monitor.alert` whose `after` is `{ check_failing: true, reason, code, since, failed_runs }` (never repeated, never
// reminded, while it keeps failing); the first run in which it works again resolves it with a `monitor.resolved`
// whose `before` says how long it failed. The streak is read from the monitor's stored runs (skipped runs, which
// ran no check, neither count nor break it), so it survives restarts and needs no column of its own.
import { openAlertOf, raiseAlert, type AlertRow } from "./alerts";
import type { Tx } from "./monitors";

export const FAILING_AFTER_RUNS = 3;

/** The rule in the API's words (the monitors' and webhooks' OpenAPI descriptions). */
export const CHECK_FAILING_TEXT = `A check that cannot run (its source unavailable or timing out, its resolver down) keeps its previous state; after ${FAILING_AFTER_RUNS} failed runs in a row it raises one \`monitor.alert\` (severity warning) whose \`after\` is \`{ "check_failing": true, "reason", "code", "since", "failed_runs" }\` (the error's message and code, the first failed run's time, the runs failed so far) and whose \`before\` is the state the check keeps; it is never repeated or reminded of while the check keeps failing, and the first run that works resolves it with \`monitor.resolved\` (\`before\` the failure with its final \`failed_runs\`, \`after\` \`{ "check_failing": false }\`).`;

interface MonitorRef {
  id: string;
  workspaceId: string;
  name: string | null;
  target: string;
}

/** What a `check_failing` alert says: why the check could not run, since when, and in how many runs in a row. */
export type CheckFailing = {
  check_failing: true;
  reason: string;
  code: string;
  since: string;
  failed_runs: number;
};

/** A stored run's results as far as this file reads them (./run.ts writes them): which checks had an error. */
type RunResults = Record<string, { error: unknown } | undefined> | null;

/** The check's latest completed runs (this one included), newest first: the failed ones in a row, or null. */
async function failedStreak(tx: Tx, monitorId: string, check: string): Promise<{ since: Date; runs: number } | null> {
  const runs = await tx.monitorRun.findMany({
    where: { monitorId, status: "completed" },
    orderBy: [{ startedAt: "desc" }, { id: "desc" }],
    take: FAILING_AFTER_RUNS,
    select: { startedAt: true, results: true },
  });
  if (runs.length < FAILING_AFTER_RUNS) return null;
  if (!runs.every((r) => (r.results as RunResults)?.[check]?.error)) return null;
  return { since: runs[runs.length - 1]!.startedAt, runs: runs.length };
}

/**
 * This run could not make `check`: after FAILING_AFTER_RUNS such runs in a row, one open alert (none while one is
 * already open). `kept` is the state the check keeps meanwhile, the alert's `before` (null if it never ran).
 */
export async function alertOnFailure(
  tx: Tx,
  monitor: MonitorRef,
  check: string,
  x: { now: Date; runId: string; error: { code: string; message: string }; kept: Record<string, unknown> | null },
): Promise<AlertRow | null> {
  if (await openAlertOf(tx, monitor.id, check, { failing: true })) return null;
  const streak = await failedStreak(tx, monitor.id, check);
  if (!streak) return null;
  const after: CheckFailing = {
    check_failing: true,
    reason: x.error.message,
    code: x.error.code,
    since: streak.since.toISOString(),
    failed_runs: streak.runs,
  };
  return raiseAlert(tx, monitor, {
    type: "monitor.alert",
    check,
    severity: "warning",
    before: x.kept,
    after,
    open: true,
    runId: x.runId,
    now: x.now,
  });
}

/** This run made `check` again: the open `check_failing` alert, if any, resolves, saying how many runs failed. */
export async function resolveFailure(
  tx: Tx,
  monitor: MonitorRef,
  check: string,
  x: { now: Date; runId: string },
): Promise<AlertRow | null> {
  const open = await openAlertOf(tx, monitor.id, check, { failing: true });
  if (!open) return null;
  const failing = open.after as CheckFailing;
  // Every completed run since the streak began failed (one that worked would have resolved the alert then).
  const failedRuns = await tx.monitorRun.count({
    where: {
      monitorId: monitor.id,
      status: "completed",
      startedAt: { gte: new Date(failing.since) },
      id: { not: x.runId },
    },
  });
  return raiseAlert(tx, monitor, {
    type: "monitor.resolved",
    check,
    severity: "info",
    before: { ...failing, failed_runs: Math.max(failedRuns, failing.failed_runs) },
    after: { check_failing: false },
    open: false,
    runId: x.runId,
    now: x.now,
    closes: open.id,
  });
}
