"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { CHECK_TYPES, type CheckType } from "../../../../server/monitors/checks/types";
import { ReadFailed } from "../../_components/ErrorNote";
import { PlanGate, plansWith, useCapability } from "../../_components/PlanGate";
import { useTRPC } from "../../_components/trpc";
import { parsePackages } from "../checks-input";
import { MonitorForm } from "../MonitorForm";
import { useMonitorPlan } from "../plan";
import "../monitors.css";

export function NewMonitor({ target, checks, packages }: { target: string; checks: string; packages: string }) {
  const trpc = useTRPC();
  // The plan's read (the workspace's overview, which useCapability and useMonitorPlan read too).
  const overview = useQuery(trpc.account.overview.queryOptions());
  const full = useCapability("full");
  const plan = useMonitorPlan();
  const listed = parsePackages(packages);
  const chosen = checks.split(",").filter((c): c is CheckType => (CHECK_TYPES as readonly string[]).includes(c));
  // The packages check comes pre-chosen only with its list (a package report's "Watch this package").
  const kept = chosen.filter((c) => c !== "packages" || listed.length > 0);
  const types: CheckType[] = kept.length ? kept : ["tls", "reachability"];
  return (
    <>
      <p className="small">
        <Link href="/dashboard/monitors">← Monitors</Link>
      </p>
      <h1>New monitor</h1>
      {overview.error ? (
        <ReadFailed what="The workspace's plan" query={overview} />
      ) : full === false ? (
        <PlanGate feature="Monitors" plans={plansWith("full")} />
      ) : plan ? (
        <section className="card">
          <MonitorForm
            initial={{
              name: null,
              target,
              checks: types.map((type) => (type === "packages" ? { type, packages: listed } : { type })),
              interval: plan.allowed.includes("24h") ? "24h" : plan.shortest,
              thresholds: { tls_expiry_days: [] },
            }}
          />
        </section>
      ) : (
        <p className="muted" role="status">
          Loading your plan…
        </p>
      )}
    </>
  );
}
