"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { Attribution } from "./_components/Attribution";
import { CreateWorkspaceForm } from "./_components/CreateWorkspaceForm";
import { WorkspaceId } from "./_components/WorkspaceId";
import { ReadFailed } from "./_components/ErrorNote";
import { UsageMeter } from "./_components/UsageMeter";
import { useTRPC } from "./_components/trpc";
import { MonthUsageChart } from "./analytics/MonthUsageChart";
import { age } from "./cases/age";
import { accessWords } from "./plan/access-words";
import { SourcesCard } from "./sources/SourcesCard";

export function OverviewView() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const plans = useQuery(trpc.account.plans.queryOptions());
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  if (overview.error)
    return (
      <>
        <h1>Overview</h1>
        <ReadFailed what="The workspace's overview" query={overview} />
      </>
    );
  if (!overview.data) return <p className="muted">Loading…</p>;
  const { workspace, role, entitlements, usage } = overview.data;
  const planName = (slug: string) => plans.data?.find((p) => p.slug === slug)?.name ?? slug;
  return (
    <>
      <h1 data-testid="workspace-name">{workspace.name}</h1>
      <p>
        <WorkspaceId id={workspace.id} />
      </p>
      <div className="card">
        <h2>Usage this month</h2>
        <div className="usage-grid">
          <UsageMeter {...usage} />
          <MonthUsageChart />
        </div>
      </div>
      <div className="grid-2">
        <div className="card">
          <h2>Plan</h2>
          {plans.error ? (
            <ReadFailed what="The plan's name" query={plans} />
          ) : (
            <p data-testid="current-plans">{plans.data ? entitlements.plans.map(planName).join(" + ") : "…"}</p>
          )}
          <ul className="small">
            <li>{entitlements.monthlyUnits.toLocaleString("en-US")} lookup units per UTC month, shared by all keys</li>
            <li data-testid="plan-access">Access: {accessWords(entitlements.capabilities)}</li>
            <li>
              Up to {entitlements.apiKeys} API key{entitlements.apiKeys === 1 ? "" : "s"}
            </li>
            <li>
              Bulk lookups: {entitlements.bulk ? <Link href="/dashboard/bulk">yes</Link> : "no"} · Webhooks:{" "}
              {entitlements.webhooks ? <Link href="/dashboard/webhooks">yes</Link> : "no"}
            </li>
            <li>Lookup history: {entitlements.historyDays ? `${entitlements.historyDays} days` : "none"}</li>
          </ul>
          <Link href="/dashboard/plan">{role === "owner" ? "Change plan" : "Plan details"}</Link>
        </div>
        <div className="card">
          <h2>Get started</h2>
          <p className="small">
            Your role: <strong data-testid="my-role">{role}</strong>. Call the API with a workspace key:
          </p>
          <pre className="raw-json">{`curl -H "Authorization: Bearer $KEY" \\\n  ${origin}/v1/ip/8.8.8.8/geo`}</pre>
          <p className="small">
            <Link href="/dashboard/keys">API keys</Link> · <Link href="/dashboard/console">Lookup console</Link> ·{" "}
            <Link href="/docs">API reference</Link>
          </p>
        </div>
      </div>
      {entitlements.capabilities.includes("full") ? <OpenCases /> : null}
      <SourcesCard />
      <details className="card">
        <summary>Create another workspace</summary>
        <div style={{ marginTop: "0.75rem" }}>
          <CreateWorkspaceForm refreshSwitcher />
        </div>
      </details>
      <Attribution />
    </>
  );
}

/** The review queue at a glance: how many cases wait and how long the oldest has. */
function OpenCases() {
  const trpc = useTRPC();
  const cases = useQuery(trpc.cases.list.queryOptions({ status: "open", limit: 1 }));
  const c = cases.data?.counts;
  return (
    <div className="card" data-testid="overview-cases">
      <h2>Review queue</h2>
      <ReadFailed what="The review queue" query={cases} />
      <p>
        {cases.error
          ? null
          : c === undefined
            ? "Loading…"
            : c.open === 0
              ? "No open cases."
              : `${c.open} open case${c.open === 1 ? "" : "s"}, the oldest waiting ${age(c.oldest_open_minutes ?? 0)}.`}{" "}
        <Link href="/dashboard/cases">Open the queue</Link>
      </p>
    </div>
  );
}
