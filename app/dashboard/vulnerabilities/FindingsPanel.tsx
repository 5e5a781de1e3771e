// The selected version's verdict and supply-chain findings, after the malware alert: what advisories miss (code that
// runs on install, a release hours old, a new publisher, a look-alike name), each with the reason a person can check.
import "./findings.css";
import type { PackageReport } from "./types";

const LEVEL_TEXT: Record<PackageReport["verdict"]["level"], string> = {
  none: "Nothing found",
  low: "Low risk",
  medium: "Medium risk",
  high: "High risk",
  critical: "Critical risk",
};

const KIND_TEXT: Record<string, string> = {
  typosquat: "Look-alike name",
  install_script: "Runs code on install",
  fresh_release: "Fresh release",
  new_publisher: "New publisher",
  yanked: "Yanked",
  deprecated: "Deprecated",
  unmaintained: "Unmaintained",
  repository_missing: "No source repository",
  repository_mismatch: "Repository elsewhere",
};

export function FindingsPanel({ report }: { report: PackageReport }) {
  const { verdict, findings } = report;
  const version = report.version.selected;
  return (
    <section className="card vuln-findings" data-testid="package-findings" aria-labelledby="vuln-findings-title">
      <h2 id="vuln-findings-title">
        Verdict for {version}:{" "}
        <span className={`vuln-level vuln-level-${verdict.level}`} data-testid="package-verdict">
          {LEVEL_TEXT[verdict.level]} ({verdict.score}/100)
        </span>
      </h2>
      {findings.length === 0 ? (
        <p className="small">
          No supply-chain findings: no install-time code, not fresh, deprecated or yanked, a known publisher and a
          matching repository.
        </p>
      ) : (
        <ul className="vuln-finding-list">
          {findings.map((f) => (
            <li key={f.kind + f.reason}>
              <strong>{KIND_TEXT[f.kind] ?? f.kind.replaceAll("_", " ")}</strong>{" "}
              <span className={`vuln-sev vuln-sev-${f.severity}`}>{f.severity}</span>
              <div>{f.reason}</div>
            </li>
          ))}
        </ul>
      )}
      {verdict.reasons.length > findings.length ? (
        <details>
          <summary>What moved the score</summary>
          <ol className="vuln-finding-list">
            {verdict.reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}
