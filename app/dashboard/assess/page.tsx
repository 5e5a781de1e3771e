import { Attribution } from "../_components/Attribution";
import { Gated } from "../_components/PlanGate";
import { procedureCost } from "../_components/procedure-cost";
import { AssessView } from "./AssessView";

export const metadata = { title: "Assess an event · Dashboard" };
export const dynamic = "force-dynamic";

export default function AssessPage() {
  return (
    <>
      <h1>Assess an event</h1>
      <p className="muted small">
        Scores a signup, login, checkout, form or API event exactly as <code>POST /v1/assess</code> does, with this
        workspace&apos;s rules, and records it as an investigation event.
      </p>
      <Gated capability="full" feature="Assessments">
        <AssessView cost={procedureCost("assessment.assess") ?? "1 unit"} />
      </Gated>
      <Attribution />
    </>
  );
}
