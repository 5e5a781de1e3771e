"use client";
// Runs one metered lookup through the dashboard's tRPC endpoint and then re-reads the workspace's usage, as the lookup
// console does, so the meter shows what the lookup cost (a failed attempt's units are given back, and the meter says so).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTRPC } from "../_components/trpc";
import type { Outcome } from "./types";

export type UsageChange = { before: number; after: number; remaining: number; lookups: number };

export function useMeteredLookup() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const [running, setRunning] = useState(false);
  const [change, setChange] = useState<UsageChange | null>(null);

  const run = useCallback(
    async <T>(call: () => Promise<T>): Promise<Outcome<T>> => {
      setRunning(true);
      // The count before the run, never a 0 standing in for a meter that has not loaded yet (it waits for it).
      const before = (await queryClient.ensureQueryData(trpc.account.overview.queryOptions())).usage.used;
      let outcome: Outcome<T>;
      try {
        outcome = { ok: true, data: await call() };
      } catch (error) {
        outcome = { ok: false, error };
      }
      try {
        const fresh = await queryClient.fetchQuery({ ...trpc.account.overview.queryOptions(), staleTime: 0 });
        outcome = { ...outcome, units: fresh.usage.used - before };
        setChange((prev) => ({
          before,
          after: fresh.usage.used,
          remaining: fresh.usage.remaining,
          lookups: (prev?.lookups ?? 0) + 1,
        }));
      } finally {
        setRunning(false);
      }
      return outcome;
    },
    [queryClient, trpc],
  );

  const capabilities: readonly string[] = overview.data?.entitlements.capabilities ?? [];
  return {
    run,
    running,
    change,
    usage: overview.data?.usage ?? null,
    /** The usage's read (the workspace's overview), for the page to say when it failed, with Retry. */
    usageRead: overview,
    /** null while the overview loads: the page does not warn before it knows. */
    hasCapability: overview.data ? capabilities.includes("vulnerabilities") : null,
  };
}
