import { Attribution } from "../_components/Attribution";
import { lookupCatalog } from "./catalog";
import { ConsoleView } from "./ConsoleView";

export const metadata = { title: "Lookup console · Dashboard" };
export const dynamic = "force-dynamic";

export default function ConsolePage() {
  return (
    <>
      <h1>Lookup console</h1>
      <p className="muted small">
        Runs any metered lookup through the same procedure as the <code>/v1</code> API, against this workspace&apos;s
        plan and shared monthly allowance. Each run costs lookup units like an API call.
      </p>
      <ConsoleView catalog={lookupCatalog()} />
      <Attribution />
    </>
  );
}
