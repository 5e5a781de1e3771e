// The scan's summary, read first: how many packages are malware, vulnerable or flagged, the advisories by severity,
// then what to do: remove the malware, then upgrade each package to the smallest version that fixes it.
import { useState } from "react";
import type { ScannedPackage, ScanReport } from "../../../server/vulnerabilities/lockfile-scan/schemas";
import { epssText, findingLabel } from "./ScanDetails";
import { SeverityBadge } from "./SeveritySummary";
import { SEVERITIES } from "./types";

type Upgrade = ScanReport["summary"]["upgrades"][number];
const FIRST_STEPS = 8;

const keyOf = (p: { ecosystem: string; name: string }, version: string) =>
  `${p.ecosystem}\u0000${p.name}\u0000${version}`;
const plural = (v: number, one: string, many: string) => `${v.toLocaleString("en-US")} ${v === 1 ? one : many}`;

function Step({ u, p }: { u: Upgrade; p: ScannedPackage | undefined }) {
  if (u.malware)
    return (
      <li className="scan-step scan-step-malware" data-testid="scan-step" data-kind="remove">
        <span className="scan-action scan-action-remove">Remove</span>
        <span>
          <strong>{u.name}</strong> {u.from} is reported as malicious
          {p?.malwareReports.length ? `: ${p.malwareReports.map((m) => `${m.summary} (${m.id})`).join("; ")}` : "."}
        </span>
      </li>
    );
  const kev = (p?.kev.length ?? 0) > 0;
  const details = [
    u.fixes.length > 0 ? `fixes ${plural(u.fixes.length, "advisory", "advisories")}` : null,
    u.maxEpss !== null ? `EPSS ${epssText(u.maxEpss)}` : null,
  ].filter(Boolean);
  return (
    <li className="scan-step" data-testid="scan-step" data-kind={u.to ? "upgrade" : "no-fix"}>
      <span className={`scan-action${u.to ? "" : " scan-action-none"}`}>{u.to ? "Upgrade" : "No fix"}</span>
      <span>
        <strong>{u.name}</strong> {u.from}
        {u.to ? (
          <>
            {" → "}
            <strong>{u.to}</strong>
          </>
        ) : (
          `: no version fixes every advisory (${plural(p?.advisories.length ?? 0, "advisory", "advisories")})`
        )}
        {details.length ? <span className="muted"> ({details.join(", ")})</span> : null}{" "}
        <SeverityBadge severity={u.maxSeverity} />
        {kev ? <span className="vuln-kev-badge">KEV</span> : null}
      </span>
    </li>
  );
}

export function ScanSummary({ report, onFinding }: { report: ScanReport; onFinding: (kind: string) => void }) {
  const [all, setAll] = useState(false);
  const { summary } = report;
  const byKey = new Map(report.packages.map((p) => [keyOf(p, p.version), p]));
  const flagged = report.packages.filter((p) => p.findings.length > 0).length;
  const clean = report.packages.filter((p) => !p.malware && !p.advisories.length && !p.findings.length).length;
  const steps = all ? summary.upgrades : summary.upgrades.slice(0, FIRST_STEPS);
  const findings = Object.entries(summary.byFinding).sort((a, b) => b[1] - a[1]);
  const tiles = [
    { id: "malware", label: "malware", n: summary.malware },
    { id: "advisory", label: "vulnerable", n: summary.vulnerable },
    { id: "finding", label: "with findings", n: flagged },
    { id: "none", label: "clean", n: clean },
  ];

  return (
    <div className="scan-summary" data-testid="scan-summary">
      <ul className="scan-tiles">
        {tiles.map((t) => (
          <li key={t.id} className={`scan-tile scan-tile-${t.id}${t.n === 0 ? " zero" : ""}`}>
            <span className="scan-tile-n" data-testid={`scan-count-${t.id}`}>
              {t.n.toLocaleString("en-US")}
            </span>
            <span className="scan-tile-label">{t.label}</span>
          </li>
        ))}
      </ul>
      <h3>Advisories by severity</h3>
      <ul className="vuln-counts" data-testid="scan-severity-counts">
        {SEVERITIES.map((s) => (
          <li key={s} className={`vuln-count vuln-count-${s}${summary.bySeverity[s] === 0 ? " zero" : ""}`}>
            <span className="vuln-count-n" data-testid={`scan-severity-${s}`}>
              {summary.bySeverity[s]}
            </span>
            <span className="vuln-count-label">{s}</span>
          </li>
        ))}
      </ul>
      {findings.length > 0 ? (
        <>
          <h3>Supply-chain findings</h3>
          <ul className="scan-chips">
            {findings.map(([kind, count]) => (
              <li key={kind}>
                <button type="button" className="scan-chip" onClick={() => onFinding(kind)}>
                  {findingLabel(kind)} <strong>{count}</strong>
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <h3>What to do first</h3>
      {summary.upgrades.length === 0 ? (
        <p className="small" data-testid="scan-nothing-to-do">
          Nothing to remove or upgrade: no package version has a malware report or an affecting advisory.{" "}
          <span className="muted">{report.noAdvisoryCopy}</span>
        </p>
      ) : (
        <ol className="scan-steps" data-testid="scan-steps">
          {steps.map((u) => (
            <Step key={keyOf(u, u.from)} u={u} p={byKey.get(keyOf(u, u.from))} />
          ))}
        </ol>
      )}
      {summary.upgrades.length > FIRST_STEPS ? (
        <button type="button" className="link-button small" onClick={() => setAll(!all)} aria-expanded={all}>
          {all ? "Show the first steps only" : `Show all ${summary.upgrades.length} steps`}
        </button>
      ) : null}
    </div>
  );
}
