"use client";
// The workspace's plans and what they give, this month's usage against the allowance (used / limit, when it resets),
// and how plans change here: granted by the operator, or bought through Stripe (SERVICE_BILLING). No page or
// procedure lets an owner set plans directly.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { ReadFailed } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { UsageMeter } from "../_components/UsageMeter";
import { WorkspaceId } from "../_components/WorkspaceId";
import { accessWords } from "./access-words";
import { BillingActions } from "./BillingActions";
import "./plan.css";

const dateFmt = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
const n = (v: number) => v.toLocaleString("en-US");

export function PlanView() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const billing = useQuery(trpc.account.billing.queryOptions());
  const catalog = useQuery(trpc.account.plans.queryOptions());
  const returned = useSearchParams().get("billing");
  const planName = (slug: string) => catalog.data?.find((p) => p.slug === slug)?.name ?? slug;
  const ent = overview.data?.entitlements;
  const b = billing.data;
  const isOwner = overview.data?.role === "owner";

  return (
    <>
      <h1>Plan</h1>
      {overview.data ? (
        <p>
          <WorkspaceId id={overview.data.workspace.id} />
        </p>
      ) : null}
      {/* The plan, its billing and the plans' names are one part: any of them failed, it could not be read. */}
      <ReadFailed
        what="The workspace's plan"
        error={overview.error ?? billing.error ?? catalog.error}
        onRetry={() => Promise.all([overview, billing, catalog].filter((q) => q.isError).map((q) => q.refetch()))}
        retrying={overview.isFetching || billing.isFetching || catalog.isFetching}
      />
      {returned === "success" ? (
        <p className="notice" data-testid="billing-returned">
          Thank you. Your plan appears here as soon as Stripe confirms the payment, usually within a minute.
        </p>
      ) : returned === "updated" ? (
        <p className="notice" data-testid="billing-returned">
          Plan change requested. It applies as soon as Stripe confirms it.
        </p>
      ) : returned === "canceled" ? (
        <p className="notice" data-testid="billing-returned">
          Checkout was canceled; nothing changed.
        </p>
      ) : null}
      {!ent || !b || !catalog.data ? (
        overview.error || billing.error || catalog.error ? null : (
          <p className="muted">Loading…</p>
        )
      ) : (
        <>
          <section className="card" data-testid="plan-summary">
            <h2>Your plans: {ent.plans.map(planName).join(" + ")}</h2>
            <dl className="plan-figures" data-testid="plan-figures">
              <div>
                <dt>Monthly allowance</dt>
                <dd>{n(ent.monthlyUnits)} units</dd>
              </div>
              <div>
                <dt>API keys</dt>
                <dd>{n(ent.apiKeys)}</dd>
              </div>
              <div>
                <dt>Members</dt>
                <dd>{n(ent.members)}</dd>
              </div>
              <div>
                <dt>Sender slots</dt>
                <dd>{n(ent.senders)}</dd>
              </div>
              <div>
                <dt>History</dt>
                <dd>{ent.historyDays ? `${ent.historyDays} days` : "none"}</dd>
              </div>
              <div>
                <dt>Access</dt>
                <dd>
                  {accessWords(ent.capabilities)}
                  {ent.bulk ? ", bulk" : ""}
                  {ent.webhooks ? ", webhooks" : ""}
                </dd>
              </div>
            </dl>
            {b.subscriptions.length ? (
              <ul className="small sub-list" data-testid="subscriptions">
                {b.subscriptions.map((s, i) => (
                  <li key={i}>
                    <strong>{planName(s.plan)}</strong> ·{" "}
                    {s.source === "stripe" ? "paid through Stripe" : "granted by the operator"}
                    {s.status === "past_due" && s.graceEndsAt ? (
                      <span className="badge badge-paused" style={{ marginLeft: 6 }}>
                        payment overdue: kept until {dateFmt(s.graceEndsAt)}
                      </span>
                    ) : null}
                    {s.cancelAtPeriodEnd && s.currentPeriodEnd ? (
                      <span className="badge badge-pending" style={{ marginLeft: 6 }}>
                        ends {dateFmt(s.currentPeriodEnd)}
                      </span>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>

          {overview.data ? (
            <section className="card" data-testid="plan-usage">
              <h2>Usage this month</h2>
              <UsageMeter {...overview.data.usage} />
              <p className="small">
                <Link href="/dashboard/analytics">Where the units went</Link> ·{" "}
                <Link href="/dashboard/keys">Usage per key</Link>
              </p>
            </section>
          ) : null}

          <section className="card" data-testid="billing-mode" data-mode={b.mode}>
            <h2>Changing plans</h2>
            {b.mode === "operator" ? (
              <>
                <p>Plans on this service are granted by its operator; there is no online payment here.</p>

                {b.contact ? (
                  <p data-testid="billing-contact">
                    To ask for a change, contact{" "}
                    {b.contact.kind === "url" ? (
                      <a href={b.contact.value} rel="noopener noreferrer" target="_blank">
                        {b.contact.value}
                      </a>
                    ) : (
                      <a href={`mailto:${b.contact.value}`}>{b.contact.value}</a>
                    )}{" "}
                    and mention this workspace: <code>{overview.data?.workspace.name}</code>, id{" "}
                    <code>{overview.data?.workspace.id}</code> (copy it above).
                  </p>
                ) : (
                  <p data-testid="billing-contact">
                    To ask for a change, contact the people who run this service and mention this workspace&apos;s id
                    (copy it above).
                  </p>
                )}
              </>
            ) : (
              <BillingActions
                isOwner={isOwner}
                held={b.subscriptions.filter((s) => s.source === "stripe").map((s) => s.plan)}
                sellable={b.sellablePlans}
                hasBillingAccount={b.hasBillingAccount}
                graceDays={b.graceDays}
                planName={planName}
              />
            )}
          </section>
        </>
      )}

      <h2>All plans</h2>
      <p className="muted small" data-testid="plans-intro">
        Plans held together give the <strong>highest</strong> allowance, key, member and sender figures (never the sum)
        and the union of their access. There are no overage charges: at the limit, lookups are refused until the next
        UTC month. When a change lowers the key limit, the newest keys pause (the oldest stay active) and resume when
        the limit rises again or a revoked key makes room.
      </p>
      <div className="plan-grid" data-testid="plan-grid">
        {catalog.data?.map((p) => (
          <div
            key={p.slug}
            className={`plan-card${ent?.plans.includes(p.slug) ? " selected" : ""}`}
            data-testid={`plan-${p.slug}`}
          >
            <strong>{p.name}</strong>
            <ul className="small">
              <li>{n(p.monthlyUnits)} units / UTC month</li>
              <li>
                {p.apiKeys} API key{p.apiKeys === 1 ? "" : "s"} · {p.members} member{p.members === 1 ? "" : "s"} ·{" "}
                {p.senders} sender slot{p.senders === 1 ? "" : "s"}
              </li>
              <li>{accessWords(p.capabilities, { only: true })}</li>
              <li>
                {p.bulk ? "Bulk lookups" : "No bulk"}
                {p.webhooks ? " · webhooks" : ""}
              </li>
              <li>History: {p.historyDays ? `${p.historyDays} days` : "none"}</li>
            </ul>
          </div>
        ))}
      </div>
    </>
  );
}
