// Alerts of a check that alerts finding by finding (the project check: checks/types.ts `perFinding`). Its state is
// `{ findings: { [key]: finding } }`. A finding this run has and the previous run did not is one `monitor.alert`
// (open), with the package, version, what was found and the fixed version; it is not repeated while it stays. When a
// run no longer has it (the advisory withdrawn, or the project's next scan dropped or upgraded the package), its open
// alert closes with a `monitor.resolved`. The first run is the baseline: what the project's scan already answered.
import { isFailingAlert, raiseAlert, type AlertRow } from "./alerts";
import type { Severity } from "./checks/types";
import type { Tx } from "./monitors";

type Observed = { severity: Severity; state: Record<string, unknown> };
type FindingState = { severity: string; [field: string]: unknown };
interface MonitorRef {
  id: string;
  workspaceId: string;
  name: string | null;
  target: string;
}

const findingsIn = (o: Observed | undefined) =>
  ((o?.state as { findings?: Record<string, FindingState> } | undefined)?.findings ?? {}) as Record<
    string,
    FindingState
  >;

const alertSeverity = (f: FindingState): "warning" | "critical" =>
  f.severity === "critical" || f.severity === "high" || f.kind === "malware" ? "critical" : "warning";

export async function alertOnFindings(
  tx: Tx,
  monitor: MonitorRef,
  check: string,
  prev: Observed | undefined,
  cur: Observed,
  x: { now: Date; runId: string },
): Promise<AlertRow[]> {
  const before = findingsIn(prev);
  const after = findingsIn(cur);
  const raised: AlertRow[] = [];
  const open = (await tx.monitorAlert.findMany({ where: { monitorId: monitor.id, check, open: true } })).filter(
    (a) => !isFailingAlert(a),
  );
  const openKeys = new Set(open.map((a) => (a.after as { finding?: string } | null)?.finding));
  if (prev) {
    for (const [key, f] of Object.entries(after)) {
      if (key in before || openKeys.has(key)) continue;
      raised.push(
        await raiseAlert(tx, monitor, {
          type: "monitor.alert",
          check,
          severity: alertSeverity(f),
          before: null,
          after: { finding: key, ...f },
          open: true,
          runId: x.runId,
          now: x.now,
        }),
      );
    }
  }
  for (const a of open) {
    const key = (a.after as { finding?: string } | null)?.finding;
    if (!key || key in after) continue;
    raised.push(
      await raiseAlert(tx, monitor, {
        type: "monitor.resolved",
        check,
        severity: "info",
        before: a.after,
        after: { finding: key, resolved: true },
        open: false,
        runId: x.runId,
        now: x.now,
        closes: a.id,
      }),
    );
  }
  return raised;
}
