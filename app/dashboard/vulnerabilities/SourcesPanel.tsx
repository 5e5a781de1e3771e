// Which upstream answered, when, from cache or not, and why one did not; plus the KEV catalog in use.
import { formatUtc } from "../_components/format";
import type { PackageReport } from "./types";
import { forUsers } from "../_components/answers/user-text";

export function SourcesPanel({ report }: { report: PackageReport }) {
  const catalog = report.knownExploitedCatalog;
  return (
    <section className="card" data-testid="report-sources">
      <h2>Sources</h2>
      <p className="small">
        Checked{" "}
        <time dateTime={report.checkedAt} data-testid="checked-at">
          {formatUtc(report.checkedAt)}
        </time>
        . Known-exploited catalog version <code>{catalog.version ?? "unknown"}</code>
        {catalog.releasedAt ? ` released ${catalog.releasedAt.slice(0, 10)}` : ""} ({catalog.origin}
        {catalog.partial ? ", partial snapshot: an older KEV entry may be missing" : ""}).
      </p>
      <table className="list">
        <thead>
          <tr>
            <th>Source</th>
            <th>Status</th>
            <th>Fetched</th>
            <th>Address / reason</th>
          </tr>
        </thead>
        <tbody>
          {report.sourceStatus.map((s) => (
            <tr key={s.source} data-source={s.source}>
              <td>{s.source}</td>
              <td>
                <span className={`vuln-status vuln-status-${s.status}`}>{s.status.replace("_", " ")}</span>
                {s.cached ? <span className="muted small"> (cached)</span> : null}
              </td>
              <td className="small vuln-nowrap">{formatUtc(s.fetchedAt)}</td>
              <td className="small vuln-break">
                {s.url ? <code>{s.url}</code> : <span className="null">none</span>}
                {s.reason ? <div className="muted">{forUsers(s.reason)}</div> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
