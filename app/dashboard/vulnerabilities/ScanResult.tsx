"use client";
// A finished scan: its summary first, then the package table, and the CSV and SARIF downloads. Both are rendered
// here from the JSON answer already received, by the same pure renderers the API uses for `Accept: text/csv` and
// `application/sarif+json`, so a download never runs (or charges) the scan again.
import { useState } from "react";
import { scanToCsv } from "../../../server/vulnerabilities/lockfile-scan/csv";
import { DEFAULT_FILE, scanToSarif } from "../../../server/vulnerabilities/lockfile-scan/sarif";
import type { ScanReport } from "../../../server/vulnerabilities/lockfile-scan/schemas";
import { download } from "../_components/download";
import { formatUtc } from "../_components/format";
import { userReason } from "./ScanDetails";
import { ScanSummary } from "./ScanSummary";
import { ScanTable, type ScanFilter } from "./ScanTable";

function Downloads({ report, fileName }: { report: ScanReport; fileName: string | null }) {
  const [path, setPath] = useState(fileName ?? DEFAULT_FILE[report.format]);
  return (
    <div className="form-row scan-downloads" data-testid="scan-downloads">
      <button type="button" className="btn" onClick={() => download("dependency-scan.csv", scanToCsv(report))}>
        Download CSV
      </button>
      <label>
        File path in SARIF results
        <input name="sarif-path" value={path} onChange={(e) => setPath(e.target.value)} />
      </label>
      <button
        type="button"
        className="btn"
        onClick={() =>
          download("dependency-scan.sarif", scanToSarif(report, path.trim() || null), "application/sarif+json")
        }
      >
        Download SARIF
      </button>
    </div>
  );
}

export function ScanResult({
  report,
  fileName,
  stale,
}: {
  report: ScanReport;
  fileName: string | null;
  stale: boolean;
}) {
  const [filter, setFilter] = useState<ScanFilter>({ kind: "", severity: "" });
  const troubled = report.sources.filter((s) => s.status !== "ok" && s.status !== "not_applicable");
  return (
    <div className={stale ? "scan-stale" : undefined} aria-busy={stale}>
      <section className="card" data-testid="scan-result" aria-labelledby="scan-result-title">
        <h2 id="scan-result-title">
          {report.summary.packages.toLocaleString("en-US")} package version{report.summary.packages === 1 ? "" : "s"}{" "}
          scanned
        </h2>
        <p className="small muted">
          {fileName ?? report.format} · checked <time dateTime={report.checkedAt}>{formatUtc(report.checkedAt)}</time>
          {report.skipped.length ? ` · ${report.skipped.length} not scanned (no registry version)` : ""}
        </p>
        <ScanSummary
          report={report}
          onFinding={(kind) => {
            setFilter({ kind, severity: "" });
            document.getElementById("scan-table-title")?.scrollIntoView({ block: "start" });
          }}
        />
        {troubled.length > 0 ? (
          <details className="small scan-sources">
            <summary>
              {troubled.length} source{troubled.length === 1 ? "" : "s"} partly or not available
            </summary>
            <ul>
              {troubled.map((s) => (
                <li key={s.source}>
                  <strong>{s.source}</strong>: {s.status.replace(/_/g, " ")}
                  {s.reason ? ` (${userReason(s.reason)})` : ""}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        <h3 className="scan-download-title">Download</h3>
        <Downloads report={report} fileName={fileName} />
      </section>
      <ScanTable report={report} filter={filter} onFilter={setFilter} />
    </div>
  );
}
