// One scanned package opened up: why its verdict is what it is, then the malware reports, the advisories affecting
// the version (KEV, EPSS, the version that fixes each) and the supply-chain findings with their reasons.
import type { ScannedPackage } from "../../../server/vulnerabilities/lockfile-scan/schemas";
import { forUsers } from "../_components/answers/user-text";
import { SeverityBadge } from "./SeveritySummary";

const FINDING_LABELS: Record<string, string> = {
  typosquat: "Look-alike name",
  install_script: "Install script",
  fresh_release: "Fresh release",
  new_publisher: "New publisher",
  yanked: "Yanked release",
  deprecated: "Deprecated",
  unmaintained: "Unmaintained",
  repository_missing: "No repository link",
  repository_mismatch: "Repository mismatch",
};

export const findingLabel = (kind: string) => FINDING_LABELS[kind] ?? kind.replace(/_/g, " ");

/** A source's reason for a user: no operator commands, no setting names ("(SERVICE_EPSS_URL)"). */
export const userReason = (text: string) => forUsers(text).replace(/\s*\([A-Z][A-Z0-9]*_[A-Z0-9_]+\)/g, "");

/** An EPSS probability (0..1) as a percentage a person reads: 97.3 %, 0.04 %. */
export const epssText = (v: number) => `${(v * 100).toFixed(v >= 0.1 ? 1 : 2)} %`;

export function ScanDetails({ p, id }: { p: ScannedPackage; id: string }) {
  return (
    <div className="scan-details" id={id} data-testid="scan-details">
      <p className="small">
        <strong>Verdict {p.verdict.level}</strong> (score {p.verdict.score} of 100)
        {p.line ? ` · line ${p.line} of the file` : ""}
        {p.dev ? " · development dependency" : ""}
      </p>
      {p.verdict.reasons.length > 0 ? (
        <ul className="scan-reasons" data-testid="scan-verdict-reasons">
          {p.verdict.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      ) : null}
      {p.malwareReports.length > 0 ? (
        <div className="scan-detail-block scan-detail-malware">
          <h3>Malware reports</h3>
          <ul>
            {p.malwareReports.map((m) => (
              <li key={m.id}>
                <code>{m.id}</code> {m.summary}
                {m.publishedAt ? <span className="muted"> · reported {m.publishedAt.slice(0, 10)}</span> : null}
              </li>
            ))}
          </ul>
          <p className="small">Remove this version, and treat machines that installed it as compromised.</p>
        </div>
      ) : null}
      {p.advisories.length > 0 ? (
        <div className="scan-detail-block">
          <h3>Advisories affecting {p.version}</h3>
          <ul className="scan-advisories">
            {p.advisories.map((a) => (
              <li key={a.id} data-testid="scan-advisory" data-advisory={a.id}>
                <div className="row">
                  <SeverityBadge severity={a.severity} />
                  <strong>{a.id}</strong>
                  {a.kev ? <span className="vuln-kev-badge">KEV</span> : null}
                  {a.aliases.slice(0, 3).map((x) => (
                    <code key={x} className="vuln-alias">
                      {x}
                    </code>
                  ))}
                </div>
                <p className="scan-advisory-summary">{a.summary || "No summary."}</p>
                <p className="small muted">
                  {a.nearestFixedVersion ? `Fixed in ${a.nearestFixedVersion}` : "No fixed version known"}
                  {a.affected === null ? " · affected status undecided (commit ranges only)" : ""}
                  {" · "}
                  {a.epss
                    ? `EPSS ${epssText(a.epss.epss)} (${a.epss.cve})`
                    : `no EPSS score${a.epssReason ? ` (${userReason(a.epssReason)})` : ""}`}
                </p>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {p.kev.length > 0 ? (
        <div className="vuln-kev-note" data-testid="scan-kev">
          {p.kev.map((k) => (
            <p key={k.cveId}>
              <strong>Known exploited (CISA KEV)</strong>: {k.cveId}, {k.vulnerabilityName}, added {k.dateAdded}
              {k.dueDate ? `, due ${k.dueDate}` : ""}. {k.requiredAction}
            </p>
          ))}
        </div>
      ) : null}
      {p.findings.length > 0 ? (
        <div className="scan-detail-block">
          <h3>Supply-chain findings</h3>
          <ul className="scan-findings">
            {p.findings.map((f, i) => (
              <li key={`${f.kind}:${i}`} data-testid="scan-finding">
                <SeverityBadge severity={f.severity} /> <strong>{findingLabel(f.kind)}</strong>: {f.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {p.registry.status !== "ok" && p.registry.reason ? (
        <p className="small muted">Registry facts missing: {userReason(p.registry.reason)}</p>
      ) : null}
      {p.typosquatCheck?.status === "unavailable" && p.typosquatCheck.reason ? (
        <p className="small muted" data-testid="scan-typosquat-unchecked">
          Typosquat check not done: {userReason(p.typosquatCheck.reason)}
        </p>
      ) : null}
      {p.malware || p.advisories.length > 0 || p.findings.length > 0 ? null : (
        <p className="small muted">No malware report, affecting advisory or supply-chain finding for this version.</p>
      )}
    </div>
  );
}
