// What the selected workspace's plan allows monitors (count and shortest interval), from the same table the API
// enforces (server/monitors/limits.ts).
"use client";
import { useQuery } from "@tanstack/react-query";
import { INTERVAL_MS, INTERVALS, monitorLimits } from "../../../server/monitors/limits";
import type { PlanSlug } from "../../../server/plans/catalog";
import { useTRPC } from "../_components/trpc";

export function useMonitorPlan() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const e = overview.data?.entitlements;
  if (!e) return null;
  const limits = monitorLimits({ plans: e.plans as PlanSlug[] });
  return {
    monitors: limits.monitors,
    allowed: INTERVALS.filter((i) => INTERVAL_MS[i] >= limits.minIntervalMs),
    shortest: INTERVALS.find((i) => INTERVAL_MS[i] >= limits.minIntervalMs) ?? "7d",
    monthlyUnits: e.monthlyUnits,
  };
}
