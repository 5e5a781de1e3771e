"use client";
import Link from "next/link";
import { CHECK_TYPES, type CheckType } from "../../../../server/monitors/checks/types";
import { PlanGate, plansWith, useCapability } from "../../_components/PlanGate";
import { MonitorForm } from "../MonitorForm";
import { useMonitorPlan } from "../plan";
import "../monitors.css";

export function NewMonitor({ target, checks }: { target: string; checks: string }) {
  const full = useCapability("full");
  const plan = useMonitorPlan();
  const chosen = checks.split(",").filter((c): c is CheckType => (CHECK_TYPES as readonly string[]).includes(c));
  const types: CheckType[] = chosen.length ? chosen.filter((c) => c !== "packages") : ["tls", "reachability"];
  return (
    <>
      <p className="small">
        <Link href="/dashboard/monitors">← Monitors</Link>
      </p>
      <h1>New monitor</h1>
      {full === false ? (
        <PlanGate feature="Monitors" plans={plansWith("full")} />
      ) : plan ? (
        <section className="card">
          <MonitorForm
            initial={{
              name: null,
              target,
              checks: types.map((type) => ({ type })),
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
