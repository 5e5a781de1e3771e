import { Suspense } from "react";
import { PlanView } from "./PlanView";

export const metadata = { title: "Plan · Dashboard" };

export default function PlanPage() {
  // PlanView reads ?billing= (the return from Stripe Checkout), which needs a Suspense boundary.
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <PlanView />
    </Suspense>
  );
}
