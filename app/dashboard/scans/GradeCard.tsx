// The summary of a scan first: grade, score, what counted, and the TLS and redirect facts behind it.
import type { ScanView } from "../../../server/site-scans/schemas";
import { formatUtc } from "../_components/format";

export function GradeCard({ scan }: { scan: ScanView }) {
  if (scan.status === "failed") {
    return (
      <div className="card grade-card" data-testid="grade-card">
        <span className="grade grade-none" aria-label="no grade">
          –
        </span>
        <div>
          <p className="answer-headline">{scan.host} could not be scanned</p>
          <p>{scan.error}</p>
        </div>
      </div>
    );
  }
  const failing = scan.tests?.filter((t) => t.points < 0).length ?? 0;
  return (
    <div className="card grade-card" data-testid="grade-card">
      <span
        className={`grade grade-${scan.grade?.[0] ?? "none"}`}
        data-testid="scan-grade"
        aria-label={`grade ${scan.grade}`}
      >
        {scan.grade}
      </span>
      <div>
        <p className="answer-headline">
          {scan.host}: {scan.score} points
        </p>
        <p>
          {failing === 0
            ? "No test lost points."
            : `${failing} test${failing === 1 ? "" : "s"} lost points (${scan.summary?.penalties}).`}{" "}
          {scan.summary && scan.summary.bonuses > 0
            ? scan.summary.bonuses_applied
              ? `Bonuses added ${scan.summary.bonuses}.`
              : `Bonuses of ${scan.summary.bonuses} did not count: they need 90 points before bonuses.`
            : null}
        </p>
        <p className="muted small">
          {scan.tls?.connected
            ? `TLS ${scan.tls.protocol ?? ""}, ${scan.tls.valid ? "valid certificate" : "certificate problem"}${scan.tls.days_left !== null ? `, ${scan.tls.days_left} days left` : ""}. `
            : "No HTTPS connection. "}
          {scan.redirects && scan.redirects.length > 1
            ? `Redirects: ${scan.redirects.map((r) => r.url).join(" → ")}. `
            : null}
          Scanned {formatUtc(scan.created_at)}
          {scan.duration_ms !== null ? ` in ${(scan.duration_ms / 1000).toFixed(1)} s` : ""}, {scan.visibility}.
        </p>
      </div>
    </div>
  );
}
