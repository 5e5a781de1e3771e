"use client";
// One plan gate for every paid page: shown before the form (never after a refused submit), in dashboard words,
// with the workspace id the operator's plan command needs. useCapability tells a page whether to show it.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { describePlans, plansForCapability } from "../../../server/api/contract-text";
import type { Capability } from "../../../server/plans/catalog";
import { CopyButton } from "./CopyButton";
import { errorCode, ReadFailed } from "./ErrorNote";
import { useTRPC } from "./trpc";

export function isPlanRefusal(error: unknown): boolean {
  return errorCode(error) === "CAPABILITY_REQUIRED";
}

/** "need a Suite or Lookups plan": which plans include a capability, from the plan catalog. */
export function plansWith(capability: Capability): string {
  return `need ${describePlans(plansForCapability(capability))}`;
}

/** A lookup's plans beside its cost, never the capability's name: "in every plan" or "needs a Suite or Lookups plan". */
export function lookupPlanWords(capability: Capability): string {
  const plans = describePlans(plansForCapability(capability));
  return plans.startsWith("any plan") ? "in every plan" : `needs ${plans}`;
}

/** Whether the selected workspace's plan includes a capability; null while the plan is loading. */
export function useCapability(capability: Capability): boolean | null {
  const trpc = useTRPC();
  const overview = useQuery(trpc.account.overview.queryOptions());
  if (!overview.data) return null;
  return (overview.data.entitlements.capabilities as readonly string[]).includes(capability);
}

/**
 * `feature` and `plans` make the sentence ("Bulk jobs need a Suite or Lookups plan. This workspace's plan does not
 * include them..."); a page whose plan limit is not a capability (history days, sender slots) says its own `sentence`.
 */
export function PlanGate(props: ({ feature: string; plans: string } | { sentence: string }) & { testId?: string }) {
  const trpc = useTRPC();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const id = overview.data?.workspace.id;
  return (
    <div className="card notice plan-gate" data-testid={props.testId ?? "plan-gate"}>
      <p>
        {"sentence" in props
          ? props.sentence
          : `${props.feature} ${props.plans}. This workspace's plan does not include them, so nothing here can run yet.`}
      </p>
      {id ? (
        <p className="plan-gate-id">
          To change the plan, give the operator this workspace&apos;s id:{" "}
          <code data-testid="gate-workspace-id">{id}</code> <CopyButton text={id} label="Copy id" />
        </p>
      ) : null}
      <p>
        <Link href="/dashboard/plan">See the workspace&apos;s plan</Link>
      </p>
    </div>
  );
}

/** A paid form: the gate instead of it when the plan lacks the capability, the form otherwise. */
export function Gated({
  capability,
  feature,
  children,
}: {
  capability: Capability;
  feature: string;
  children: ReactNode;
}) {
  const trpc = useTRPC();
  const overview = useQuery(trpc.account.overview.queryOptions());
  const allowed = useCapability(capability);
  if (overview.error) return <ReadFailed what="The workspace's plan" query={overview} />;
  if (allowed === null)
    return (
      <p className="muted" role="status">
        Loading the workspace&apos;s plan…
      </p>
    );
  return allowed ? <>{children}</> : <PlanGate feature={feature} plans={plansWith(capability)} />;
}
