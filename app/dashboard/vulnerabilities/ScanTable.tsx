// Every scanned package version, in the answer's order (malware first, then by verdict), filtered by what was found
// and by severity, fifty to a page (a scan may hold 5,000); a row opens to its advisories, findings and reasons.
import { Fragment, useMemo, useState } from "react";
import type { ScannedPackage, ScanReport } from "../../../server/vulnerabilities/lockfile-scan/schemas";
import { usePagerFocus } from "../_components/usePagerFocus";
import { ScanDetails, findingLabel } from "./ScanDetails";
import { SEVERITIES, type Severity } from "./types";

const PAGE = 50;
export type ScanFilter = { kind: string; severity: Severity | "" };

/** What a package holds, as (kinds, severity) pairs the filters match against. */
function itemsOf(p: ScannedPackage): { kinds: string[]; severity: string }[] {
  return [
    ...p.malwareReports.map(() => ({ kinds: ["malware"], severity: "critical" })),
    ...p.advisories.map((a) => ({ kinds: a.kev ? ["advisory", "kev"] : ["advisory"], severity: a.severity })),
    ...p.findings.map((f) => ({ kinds: ["finding", f.kind], severity: f.severity })),
  ];
}

function matches(p: ScannedPackage, { kind, severity }: ScanFilter): boolean {
  const items = itemsOf(p);
  if (kind === "none") return items.length === 0 && !severity;
  if (!kind && !severity) return true;
  return items.some((i) => (!kind || i.kinds.includes(kind)) && (!severity || i.severity === severity));
}

function Issues({ p }: { p: ScannedPackage }) {
  const kev = p.advisories.filter((a) => a.kev).length;
  const parts = [
    p.malware ? <span className="scan-tag scan-tag-malware">malware</span> : null,
    p.advisories.length ? `${p.advisories.length} advisor${p.advisories.length === 1 ? "y" : "ies"}` : null,
    kev ? <span className="vuln-kev-badge">{kev} KEV</span> : null,
    ...p.findings.map((f) => findingLabel(f.kind).toLowerCase()),
  ].filter(Boolean);
  if (parts.length === 0) return <span className="muted">none</span>;
  return (
    <span className="scan-issues">
      {parts.map((x, i) => (
        <span key={i}>{x}</span>
      ))}
    </span>
  );
}

function Fix({ p }: { p: ScannedPackage }) {
  if (p.malware) return <strong className="scan-remove">Remove</strong>;
  if (p.fixedIn) return <span className="vuln-nowrap">→ {p.fixedIn}</span>;
  if (p.advisories.length) return <span className="muted">no fix known</span>;
  return <span className="muted">—</span>;
}

export function ScanTable(props: { report: ScanReport; filter: ScanFilter; onFilter: (f: ScanFilter) => void }) {
  const { report, filter, onFilter } = props;
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<string | null>(null);
  const rows = useMemo(() => report.packages.filter((p) => matches(p, filter)), [report, filter]);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const at = Math.min(page, pages - 1);
  const shown = rows.slice(at * PAGE, at * PAGE + PAGE);
  const focus = usePagerFocus(at === 0, at >= pages - 1);
  const kinds = Object.keys(report.summary.byFinding).sort();
  const mixed = useMemo(() => new Set(report.packages.map((p) => p.ecosystem)).size > 1, [report]);
  const set = (f: Partial<ScanFilter>) => {
    onFilter({ ...filter, ...f });
    setPage(0);
  };

  return (
    <section className="card" data-testid="scan-table" aria-labelledby="scan-table-title">
      <h2 id="scan-table-title">Packages</h2>
      <div className="form-row scan-filters">
        <label>
          Found
          <select value={filter.kind} onChange={(e) => set({ kind: e.target.value })} data-testid="scan-filter-kind">
            <option value="">All packages</option>
            <option value="malware">Malware</option>
            <option value="advisory">Advisories</option>
            <option value="kev">Known exploited (KEV)</option>
            <option value="finding">Any supply-chain finding</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {findingLabel(k)}
              </option>
            ))}
            <option value="none">Nothing (clean)</option>
          </select>
        </label>
        <label>
          Severity
          <select
            value={filter.severity}
            onChange={(e) => set({ severity: e.target.value as Severity | "" })}
            data-testid="scan-filter-severity"
          >
            <option value="">Any</option>
            {SEVERITIES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="small muted" data-testid="scan-range" aria-live="polite">
        {rows.length === 0
          ? "No package matches these filters."
          : `Packages ${at * PAGE + 1}–${at * PAGE + shown.length} of ${rows.length.toLocaleString("en-US")}` +
            (rows.length < report.packages.length
              ? ` (${report.packages.length.toLocaleString("en-US")} scanned)`
              : "")}
        {filter.kind || filter.severity ? (
          <>
            {" "}
            <button type="button" className="link-button" onClick={() => set({ kind: "", severity: "" })}>
              Clear filters
            </button>
          </>
        ) : null}
      </p>
      {shown.length > 0 ? (
        <table className="list cards scan-rows">
          <thead>
            <tr>
              <th scope="col">Package</th>
              <th scope="col">Version</th>
              <th scope="col">Verdict</th>
              <th scope="col">Found</th>
              <th scope="col">Fix</th>
              <th scope="col">
                <span className="scan-sr">Details</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((p) => {
              const key = `${p.ecosystem}:${p.name}@${p.version}`;
              const detailsId = `scan-details-${key.replace(/[^a-zA-Z0-9_-]/g, "_")}`;
              return (
                <Fragment key={key}>
                  <tr
                    data-testid="scan-row"
                    data-package={`${p.name}@${p.version}`}
                    className={p.malware ? "scan-row-malware" : undefined}
                  >
                    <td data-label="Package" className="vuln-break">
                      <strong>{p.name}</strong>
                      {p.dev ? <span className="badge scan-dev">dev</span> : null}
                      {mixed ? <span className="muted small"> {p.ecosystem}</span> : null}
                    </td>
                    <td data-label="Version" className="vuln-break">
                      {p.version}
                    </td>
                    <td data-label="Verdict">
                      <span className={`scan-level scan-level-${p.verdict.level}`}>{p.verdict.level}</span>{" "}
                      <span className="muted small">{p.verdict.score}</span>
                    </td>
                    <td data-label="Found">
                      <Issues p={p} />
                    </td>
                    <td data-label="Fix">
                      <Fix p={p} />
                    </td>
                    <td className="cell-actions">
                      <button
                        type="button"
                        className="btn"
                        aria-expanded={open === key}
                        aria-controls={open === key ? detailsId : undefined}
                        aria-label={`${open === key ? "Hide" : "Show"} details of ${p.name} ${p.version}`}
                        onClick={() => setOpen(open === key ? null : key)}
                        data-testid="scan-row-toggle"
                      >
                        {open === key ? "Hide" : "Details"}
                      </button>
                    </td>
                  </tr>
                  {open === key ? (
                    <tr className="scan-details-row cards-note">
                      <td colSpan={6}>
                        <ScanDetails p={p} id={detailsId} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      ) : null}
      {pages > 1 ? (
        <div className="row scan-pager">
          <button
            ref={focus.previous}
            type="button"
            className="btn"
            disabled={at === 0}
            onClick={() => {
              focus.press("previous");
              setPage(at - 1);
            }}
          >
            Previous page
          </button>
          <span className="small muted">
            Page {at + 1} of {pages}
          </span>
          <button
            ref={focus.next}
            type="button"
            className="btn"
            disabled={at >= pages - 1}
            onClick={() => {
              focus.press("next");
              setPage(at + 1);
            }}
          >
            Next page
          </button>
        </div>
      ) : null}
    </section>
  );
}
