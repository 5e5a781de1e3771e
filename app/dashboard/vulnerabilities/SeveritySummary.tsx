// Advisory counts per severity with the highest one, for all advisories and for those affecting the chosen version.
import { SEVERITIES, type PackageReport } from "./types";

export function SeverityBadge({ severity }: { severity: string }) {
  return (
    <span className={`vuln-sev vuln-sev-${severity}`} data-testid="severity-badge">
      {severity}
    </span>
  );
}

type Summary = Pick<PackageReport["summary"], "total" | "highest" | "counts">;

function Counts({ summary, label, testId }: { summary: Summary; label: string; testId: string }) {
  return (
    <div className="vuln-summary-row" data-testid={testId}>
      <div className="vuln-summary-head">
        <strong>{label}</strong>
        <span className="muted small">
          {summary.total} advisor{summary.total === 1 ? "y" : "ies"} · highest{" "}
          <span data-testid={`${testId}-highest`}>
            {summary.highest === "none" ? "none" : <SeverityBadge severity={summary.highest} />}
          </span>
        </span>
      </div>
      <ul className="vuln-counts">
        {SEVERITIES.map((s) => (
          <li
            key={s}
            className={`vuln-count vuln-count-${s}${summary.counts[s] === 0 ? " zero" : ""}`}
            data-severity={s}
          >
            <span className="vuln-count-n" data-testid={`${testId}-${s}`}>
              {summary.counts[s]}
            </span>
            <span className="vuln-count-label">{s}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SeveritySummary({
  summary,
  selectedVersion,
}: {
  summary: PackageReport["summary"];
  selectedVersion: string;
}) {
  return (
    <section className="card" data-testid="severity-summary" aria-label="Severity summary">
      <h2>Severity summary</h2>
      <Counts summary={summary} label="All published advisories" testId="summary-all" />
      <Counts
        summary={summary.affectingSelectedVersion}
        label={`Affecting ${selectedVersion}`}
        testId="summary-selected"
      />
    </section>
  );
}
