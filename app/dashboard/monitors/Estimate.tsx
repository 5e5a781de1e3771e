"use client";
// The monthly units a monitor will use, shown before it is saved (monitors.estimate, which writes nothing).
import { useQuery } from "@tanstack/react-query";
import type { MonitorInterval } from "../../../server/monitors/limits";
import { useTRPC } from "../_components/trpc";

const fmt = (n: number) => n.toLocaleString("en-US");

export function Estimate({ id, checks, interval }: { id?: string; checks: number; interval: MonitorInterval }) {
  const trpc = useTRPC();
  const estimate = useQuery({
    ...trpc.monitors.estimate.queryOptions({ id, checks: Math.max(checks, 1), interval }),
    enabled: checks > 0,
  });
  if (checks === 0) return <p className="estimate">Choose at least one check.</p>;
  const e = estimate.data;
  if (!e) return <p className="estimate muted">Working out the monthly units…</p>;
  const over = e.workspace_units_per_month > e.monthly_allowance;
  return (
    <p className="estimate" data-testid="monitor-estimate" aria-live="polite">
      This monitor will use about {fmt(e.units_per_month)} units a month ({e.checks}{" "}
      {e.checks === 1 ? "check" : "checks"} × {fmt(e.runs_per_month)} runs a month); your monitors would then use{" "}
      {fmt(e.workspace_units_per_month)} of your {fmt(e.monthly_allowance)}-unit monthly allowance.
      {over ? " That is more than the allowance: runs the allowance cannot pay are skipped." : ""}
    </p>
  );
}
