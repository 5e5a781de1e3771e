// What a page shows when the workspace's plan does not include its feature: which plans do, and where to look.
import Link from "next/link";
import { errorCode } from "../_components/ErrorNote";

export function isPlanRefusal(error: unknown): boolean {
  return errorCode(error) === "CAPABILITY_REQUIRED";
}

export function PlanGate({ feature, plans }: { feature: string; plans: string }) {
  return (
    <div className="card notice" data-testid="plan-gate">
      <p>
        {feature} {plans}. This workspace&apos;s plan does not include them.
      </p>
      <p>
        <Link href="/dashboard/plan">See the workspace&apos;s plan</Link>
      </p>
    </div>
  );
}
