"use client";
// Subscriptions: owners pick the plans the workspace holds (no payment provider yet). Combined plans take the
// highest allowance and key limit, never the sum; capabilities are the union.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ErrorNote } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";

type PlanSlug = "free" | "email" | "suite_starter" | "suite_business" | "lookups_developer" | "suite_agency" | "lookups_growth";

export function PlanView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const plans = useQuery(trpc.account.plans.queryOptions());
  const [chosen, setChosen] = useState<PlanSlug[]>([]);
  const current = overview.data?.entitlements.plans;
  // Re-sync the checkboxes whenever the saved plans change (after loading and after each save).
  const currentKey = current ? [...current].sort().join(",") : null;
  useEffect(() => {
    if (currentKey !== null) setChosen(currentKey.split(",") as PlanSlug[]);
  }, [currentKey]);
  const save = useMutation(
    trpc.account.setPlans.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.account.overview.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.account.keys.queryKey() });
      },
    }),
  );
  const isOwner = overview.data?.role === "owner";
  const toggle = (slug: PlanSlug) => setChosen((c) => (c.includes(slug) ? c.filter((s) => s !== slug) : [...c, slug]));
  const changed = currentKey !== null && [...chosen].sort().join(",") !== currentKey;

  return (
    <>
      <h1>Plan</h1>
      <ErrorNote error={overview.error ?? plans.error} />
      <p className="muted small">
        A workspace can hold several plans; together they give the <strong>highest</strong> monthly allowance, key limit and history window of the
        plans held (never the sum), and the union of their capabilities, bulk and webhook access. There are no overage charges: at the limit,
        lookups answer 402 <code>QUOTA_EXCEEDED</code> until the next UTC month.
      </p>
      <p className="notice">
        <strong>Keys follow the plan.</strong> When a change lowers the key limit, the keys beyond it are <em>paused</em> (oldest keys stay
        active) and answer 403 <code>API_KEY_PAUSED</code>; raising the limit again resumes them. Revoked keys stay revoked.
      </p>
      {!isOwner && overview.data ? <p className="notice">Only workspace owners change the plan.</p> : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ plans: chosen });
        }}
      >
        <div className="plan-grid" data-testid="plan-grid">
          {plans.data?.map((p) => (
            <div key={p.slug} className={`plan-card${chosen.includes(p.slug) ? " selected" : ""}`} data-testid={`plan-${p.slug}`}>
              <label>
                <input
                  type="checkbox"
                  name={p.slug}
                  checked={chosen.includes(p.slug)}
                  disabled={!isOwner}
                  onChange={() => toggle(p.slug)}
                />
                {p.name}
              </label>
              <ul className="small">
                <li>{p.monthlyUnits.toLocaleString("en-US")} units / UTC month</li>
                <li>
                  {p.apiKeys} API key{p.apiKeys === 1 ? "" : "s"}
                </li>
                <li>{p.capabilities.includes("full") ? "Full intelligence" : "Geolocation and vulnerabilities only"}</li>
                <li>
                  {p.bulk ? "Bulk lookups" : "No bulk"}
                  {p.webhooks ? " · webhooks" : ""}
                </li>
                <li>History: {p.historyDays ? `${p.historyDays} days` : "none"}</li>
              </ul>
            </div>
          ))}
        </div>
        {isOwner ? (
          <div className="row" style={{ marginTop: "1rem" }}>
            <button type="submit" className="btn btn-primary" disabled={!changed || chosen.length === 0 || save.isPending}>
              Save plan
            </button>
            {chosen.length === 0 ? <span className="muted small">Choose at least one plan.</span> : null}
          </div>
        ) : null}
        <ErrorNote error={save.error} />
      </form>
      {save.data ? (
        <div className="card" style={{ marginTop: "1rem" }} data-testid="plan-saved">
          <h2>Plan saved</h2>
          <p className="small">
            {save.data.keys.active.length} key{save.data.keys.active.length === 1 ? "" : "s"} active, {save.data.keys.paused.length} paused
            (limit {save.data.entitlements.apiKeys}).
          </p>
        </div>
      ) : null}
    </>
  );
}
