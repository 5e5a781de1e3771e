import { Attribution } from "../_components/Attribution";
import { Gated } from "../_components/PlanGate";
import { procedureCost } from "../_components/procedure-cost";
import { ScansView } from "./ScansView";
import "./scans.css";

export const metadata = { title: "Website scans · Dashboard" };
export const dynamic = "force-dynamic";

export default function ScansPage() {
  return (
    <>
      <h1>Website scans</h1>
      <p className="muted small">
        Grades a site from A+ to F on its HTTP security headers, cookies, redirects, TLS certificate and its
        domain&apos;s CAA, DNSSEC, SPF and DMARC records, exactly as <code>POST /v1/scans</code> does. Every test says
        what was found and how to fix it. <a href="/docs#tag-Scans">Scoring table</a>.
      </p>
      <Gated capability="full" feature="Website scans">
        <ScansView cost={procedureCost("scans.create") ?? "1 unit"} />
      </Gated>
      <Attribution />
    </>
  );
}
