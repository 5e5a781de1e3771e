"use client";
// The vulnerability page's client side: one usage meter for the page, refreshed after every lookup, and the
// three lookups (package report, CVE, KEV search) and the lockfile scan, each calling the procedure the /v1 API uses.
import { useState } from "react";
import { ReadFailed } from "../_components/ErrorNote";
import { UsageMeter } from "../_components/UsageMeter";
import { CvePanel } from "./CvePanel";
import { KevPanel } from "./KevPanel";
import { PackagePanel } from "./PackagePanel";
import { ScanPanel } from "./ScanPanel";
import { useMeteredLookup } from "./useMeteredLookup";

const TABS = [
  { id: "package", label: "Package report" },
  { id: "cve", label: "CVE lookup" },
  { id: "kev", label: "Known-exploited catalog" },
  { id: "scan", label: "Scan a lockfile" },
] as const;

/** `scanMaxBytes`: the scan procedure's limit on a lockfile, read from its meta by the page (procedureFieldLimit). */
export function VulnerabilitiesView({ scanMaxBytes }: { scanMaxBytes: number }) {
  const lookup = useMeteredLookup();
  const [tab, setTab] = useState<(typeof TABS)[number]["id"]>("package");
  const { usage, change } = lookup;
  return (
    <div className="vuln-page">
      {usage ? (
        <div className="card">
          <UsageMeter {...usage} />
          {change ? (
            <p className="small" data-testid="quota-change">
              Last lookup: used {change.before} → <strong data-testid="quota-after">{change.after}</strong> (
              {change.after - change.before} unit
              {change.after - change.before === 1 ? "" : "s"}) · {change.lookups} lookup
              {change.lookups === 1 ? "" : "s"} on this page
            </p>
          ) : null}
        </div>
      ) : lookup.usageRead.error ? (
        <div className="card">
          <ReadFailed what="This month's usage" query={lookup.usageRead} />
        </div>
      ) : null}
      {lookup.hasCapability === false ? (
        <p className="notice" data-testid="capability-missing">
          This workspace&apos;s plan does not include vulnerability lookups: they are refused here without using any
          units. Choose a plan that includes them on the Plan page.
        </p>
      ) : null}
      <div className="vuln-tabs" role="tablist" aria-label="Lookup">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`tabpanel-${t.id}`}
            className={`vuln-tab${tab === t.id ? " selected" : ""}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {/* Hidden, not unmounted: each tab keeps its form and last answer while another is open. */}
      <div role="tabpanel" id="tabpanel-package" aria-labelledby="tab-package" hidden={tab !== "package"}>
        <PackagePanel lookup={lookup} />
      </div>
      <div role="tabpanel" id="tabpanel-cve" aria-labelledby="tab-cve" hidden={tab !== "cve"}>
        <CvePanel lookup={lookup} />
      </div>
      <div role="tabpanel" id="tabpanel-kev" aria-labelledby="tab-kev" hidden={tab !== "kev"}>
        <KevPanel lookup={lookup} />
      </div>
      <div role="tabpanel" id="tabpanel-scan" aria-labelledby="tab-scan" hidden={tab !== "scan"}>
        <ScanPanel lookup={lookup} maxBytes={scanMaxBytes} />
      </div>
    </div>
  );
}
