// Alerts of a check that alerts finding by finding (the project check: checks/types.ts `perFinding`). Its state is
// `{ findings: { [key]: finding }, unavailable: [package] }`. The previous run's findings and this run's are compared
// as a project's diff compares two scans (server/projects/findings.ts diffFindings, the one rule): a supply-chain
// finding of a package whose registry did not answer to either run is neither new nor gone. A finding this run adds
// is one `monitor.alert` (open), with the package, version, what was found and the fixed version; it is not repeated
// while it stays. When a run no longer has it (the advisory withdrawn, or the project's next scan dropped or upgraded
// the package), its open alert closes with a `monitor.resolved`. The first run is the baseline: what the project's
// scan already answered.
import { diffFindings, type Finding } from "../projects/findings";
import { isFailingAlert, raiseAlert, type AlertRow } from "./alerts";
import type { Severity } from "./checks/types";
import type { Tx } from "./monitors";

type Observed = { severity: Severity; state: Record<string, unknown> };
interface MonitorRef {
  id: string;
  workspaceId: string;
  name: string | null;
  target: string;
}

const findingsIn = (o: Observed | undefined) =>
  ((o?.state as { findings?: Record<string, Finding> } | undefined)?.findings ?? {}) as Record<string, Finding>;
const unavailableIn = (o: Observed | undefined) => ((o?.state.unavailable as string[] | undefined) ?? []) as string[];

const alertSeverity = (f: Finding): "warning" | "critical" =>
  f.severity === "critical" || f.severity === "high" || f.kind === "malware" ? "critical" : "warning";

export async function alertOnFindings(
  tx: Tx,
  monitor: MonitorRef,
  check: string,
  prev: Observed | undefined,
  cur: Observed,
  x: { now: Date; runId: string },
): Promise<AlertRow[]> {
  const raised: AlertRow[] = [];
  const open = (await tx.monitorAlert.findMany({ where: { monitorId: monitor.id, check, open: true } })).filter(
    (a) => !isFailingAlert(a),
  );
  const openByKey = new Map<string, (typeof open)[number]>();
  for (const a of open) {
    const key = (a.after as { finding?: string } | null)?.finding;
    if (key) openByKey.set(key, a);
  }
  // Each finding object's key in the state, to name what diffFindings answers.
  const keyOf = new Map<Finding, string>();
  const listed = (findings: Record<string, Finding>) =>
    Object.entries(findings).map(([key, f]) => {
      keyOf.set(f, key);
      return f;
    });
  // An open alert's finding counts as the previous run's: it stays open until a run no longer has it.
  const openFindings: Record<string, Finding> = {};
  for (const [key, a] of openByKey) {
    const { finding: _, ...f } = a.after as { finding: string } & Finding;
    openFindings[key] = f;
  }
  const unknown = new Set([...unavailableIn(prev), ...unavailableIn(cur)]);
  const diff = diffFindings(listed({ ...openFindings, ...findingsIn(prev) }), listed(findingsIn(cur)), unknown);
  if (prev) {
    for (const finding of diff.new) {
      const key = keyOf.get(finding)!;
      raised.push(
        await raiseAlert(tx, monitor, {
          type: "monitor.alert",
          check,
          severity: alertSeverity(finding),
          before: null,
          after: { finding: key, ...finding },
          open: true,
          runId: x.runId,
          now: x.now,
        }),
      );
    }
  }
  for (const f of diff.fixed) {
    const key = keyOf.get(f)!;
    const a = openByKey.get(key);
    if (!a) continue;
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
