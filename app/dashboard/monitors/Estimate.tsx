"use client";
// The monthly units a monitor will use, shown before it is saved (monitors.estimate, which writes nothing).
import { useQuery } from "@tanstack/react-query";
import type { MonitorEstimate } from "../../../server/monitors/estimate";
import type { MonitorInterval } from "../../../server/monitors/limits";
import { ReadFailed } from "../_components/ErrorNote";
import { inFormWords } from "../_components/field-words";
import { useTRPC } from "../_components/trpc";

/** The estimate's inputs by the form's labels. */
const ESTIMATE_LABELS = { project: "Project", checks: "Checks", interval: "Interval" };

const fmt = (n: number) => n.toLocaleString("en-US");

export function Estimate(props: { id?: string; checks: number; interval: MonitorInterval; project?: string }) {
  const { id, checks, interval } = props;
  // A project monitor's run costs its project's package versions, not one unit per check (monitors.estimate).
  const project = props.project?.trim() || undefined;
  const trpc = useTRPC();
  const estimate = useQuery({
    ...trpc.monitors.estimate.queryOptions({ id, checks: Math.max(checks, 1), interval, project }),
    enabled: checks > 0,
  });
  if (checks === 0) return <p className="estimate">Choose at least one check.</p>;
  // A refused estimate (a project name that is none) says why, in the words of the form's labels, instead of
  // "Working out…" for ever.
  if (estimate.error)
    return (
      <div className="estimate" data-testid="monitor-estimate-error">
        <ReadFailed what="The estimate" query={estimate} words={(m) => inFormWords(m, ESTIMATE_LABELS)} />
      </div>
    );
  const e = estimate.data;
  if (!e) return <p className="estimate muted">Working out the monthly units…</p>;
  return (
    <p className="estimate" data-testid="monitor-estimate" aria-live="polite">
      {estimateWords(e, project !== undefined)}
    </p>
  );
}

/** The estimate in words: a run's units as checks, or as a project's package versions. */
export function estimateWords(e: MonitorEstimate, project: boolean): string {
  const over = e.workspace_units_per_month > e.monthly_allowance;
  const perRun = project
    ? `${fmt(e.units_per_run)} package ${e.units_per_run === 1 ? "version" : "versions"}`
    : `${e.checks} ${e.checks === 1 ? "check" : "checks"}`;
  return (
    `This monitor will use about ${fmt(e.units_per_month)} units a month (${perRun} × ${fmt(e.runs_per_month)} runs a month); ` +
    `your monitors would then use ${fmt(e.workspace_units_per_month)} of your ${fmt(e.monthly_allowance)}-unit monthly allowance.` +
    (over ? " That is more than the allowance: runs the allowance cannot pay are skipped." : "")
  );
}
