"use client";
// /dashboard/monitors: the summary first (how many, how many with a problem, the units a month against the
// allowance), then every monitor with a dot and a word per check and its last change. Same procedures as /v1/monitors.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { monthlyUnits } from "../../../server/monitors/limits";
import { useDoneNotice } from "../_components/DoneNotice";
import { ReadFailed } from "../_components/ErrorNote";
import { isPlanRefusal, PlanGate, plansWith } from "../_components/PlanGate";
import { useTRPC } from "../_components/trpc";
import { CheckStates } from "./CheckStates";
import { LastChange } from "./LastChange";
import { useMonitorPlan } from "./plan";
import { INTERVAL_WORDS } from "../../../server/monitors/state-words";
import "./monitors.css";

const fmt = (n: number) => n.toLocaleString("en-US");

export function MonitorsView() {
  const trpc = useTRPC();
  const monitors = useQuery(trpc.monitors.list.queryOptions({ limit: 200 }));
  const plan = useMonitorPlan();
  // The plan's limits come from the workspace's overview (useMonitorPlan): without them the summary cannot say how
  // many monitors the plan holds, which is said rather than left out.
  const overview = useQuery(trpc.account.overview.queryOptions());
  // A monitor deleted on its page sends the user here, to a line that says so (MonitorDetail).
  const done = useDoneNotice();

  if (isPlanRefusal(monitors.error))
    return (
      <>
        <h1>Monitors</h1>
        <PlanGate feature="Monitors" plans={plansWith("full")} />
      </>
    );
  const items = monitors.data?.items ?? [];
  const active = items.filter((m) => m.status === "active");
  const withProblem = items.filter((m) => Object.values(m.states).some((s) => s.severity !== "ok"));
  const units = active.reduce((n, m) => n + monthlyUnits(m.units_per_run, m.interval), 0);
  const full = plan !== null && items.length >= plan.monitors;
  return (
    <>
      <div className="row-between">
        <h1>Monitors</h1>
        {full ? null : (
          <Link href="/dashboard/monitors/new" className="btn btn-primary">
            New monitor
          </Link>
        )}
      </div>
      <MonitorsIntro />
      {done.notice}
      <ReadFailed what="The monitors" query={monitors} />
      {monitors.isPending ? (
        <p className="muted" role="status">
          Loading monitors…
        </p>
      ) : null}
      {monitors.data ? (
        <section className="card monitor-summary" aria-label="Summary" data-testid="monitor-summary">
          <div>
            <strong>{fmt(items.length)}</strong>
            {plan ? `of ${fmt(plan.monitors)} monitors this plan holds` : "monitors"}
          </div>
          <div>
            <strong>{fmt(withProblem.length)}</strong>
            with a warning or a problem now
          </div>
          <div>
            <strong>{fmt(units)}</strong>
            units a month{plan ? ` of the ${fmt(plan.monthlyUnits)}-unit monthly allowance` : ""}
          </div>
        </section>
      ) : null}
      {monitors.data ? <ReadFailed what="The plan's limits" query={overview} /> : null}
      {full ? (
        <p className="notice small">
          This workspace has as many monitors as its plan holds. Delete one, or change the plan to add more.
        </p>
      ) : null}
      {monitors.data && items.length === 0 ? (
        <section className="card" data-testid="monitors-empty">
          <h2>No monitors yet</h2>
          <p>
            Watch a host and hear about changes before your users do: a certificate about to expire, a website grade
            that falls, a DNS record or email setting that changes, a host that goes offline.
          </p>
          <p>
            Create one with <Link href="/dashboard/monitors/new">New monitor</Link>, or from a result page (a website
            scan, a TLS, domain or email security answer) with “Watch this host”.
          </p>
        </section>
      ) : null}
      <ul className="monitor-cards">
        {items.map((m) => (
          <li key={m.id} className="monitor-card" data-testid="monitor-card">
            <div className="row-between">
              <div>
                <Link href={`/dashboard/monitors/${m.id}`}>
                  <strong>{m.name ?? m.target}</strong>
                </Link>
                <div className="muted small">
                  {m.name ? `${m.target} · ` : ""}
                  {INTERVAL_WORDS[m.interval]} · {m.checks.length} {m.checks.length === 1 ? "check" : "checks"}
                </div>
              </div>
            </div>
            {m.status === "paused" ? (
              <p className="notice small" data-testid="monitor-paused">
                Paused: this workspace has more monitors than its plan now holds, so the newest ones stopped running. It
                runs again when the plan holds it, or when you delete another monitor.
              </p>
            ) : null}
            <CheckStates checks={m.checks} states={m.states} ranBefore={m.last_run_at !== null} />
            <LastChange id={m.id} />
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * What monitors do and cost. A project monitor (watched from Projects) is listed here too, and its run costs one unit
 * per package version of its project, not one per check.
 */
export function MonitorsIntro() {
  return (
    <p className="muted small" data-testid="monitors-intro">
      A monitor checks a host on a schedule (its certificate, website grade, DNS, email security and more) and tells you
      when something changes, here and through webhooks. Each check costs one unit per run; a project watched from
      Projects costs one unit per package version of the project per run.
    </p>
  );
}
