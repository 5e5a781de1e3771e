"use client";
// The results of an open bulk job: filtered by status and kind, each target with its outcome, units, summary,
// error or full answer, and the answer savable as a report.
import { useState } from "react";
import { ReadFailed } from "../_components/ErrorNote";
import { SaveReportButton } from "../reports/SaveReportButton";
import { kindLabel, STATUS_LABEL, summaryText } from "./bulk-text";
import type { JobRead } from "./bulk-types";

type Item = NonNullable<JobRead["items"]>[number];

/** What an item gave back, beside its reserved units: " (refunded)" for all, " (3 refunded)" or " (partly refunded)". */
function refundWords(i: Pick<Item, "units" | "refunded" | "refunded_units">): string {
  if (!i.refunded) return "";
  if (i.refunded_units === null) return " (partly refunded)";
  return i.refunded_units >= i.units ? " (refunded)" : ` (${i.refunded_units} refunded)`;
}

export function BulkResults({
  job,
  items,
  error,
  onRetry,
  retrying,
}: {
  job: JobRead;
  items: JobRead | undefined;
  /** The items' read failed: said with Retry (onRetry). */
  error: unknown;
  onRetry: () => unknown;
  retrying: boolean;
}) {
  const [statusFilter, setStatusFilter] = useState("");
  const [kindFilter, setKindFilter] = useState("");
  const rows = (items?.items ?? []).filter(
    (i) => (!statusFilter || i.status === statusFilter) && (!kindFilter || i.kind === kindFilter),
  );
  const kinds = Object.keys(job.kinds ?? {});

  return (
    <>
      <div className="row bulk-filters">
        <label>
          Status
          <select
            value={statusFilter}
            onChange={(e) => setStatusFilter(e.target.value)}
            data-testid="bulk-filter-status"
          >
            <option value="">All</option>
            {["succeeded", "failed", "running", "queued", "cancelled"].map((s) => (
              <option key={s} value={s}>
                {STATUS_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Lookup
          <select value={kindFilter} onChange={(e) => setKindFilter(e.target.value)} data-testid="bulk-filter-kind">
            <option value="">All</option>
            {kinds.map((k) => (
              <option key={k} value={k}>
                {kindLabel(k)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ReadFailed what="The job's results" error={error} onRetry={onRetry} retrying={retrying} />
      {items && rows.length === 0 ? <p className="muted">No target matches this filter.</p> : null}
      {rows.length > 0 ? (
        <ol className="bulk-items" data-testid="bulk-items">
          {rows.map((i) => (
            <li key={i.position} data-status={i.status} data-testid="bulk-item">
              <div className="bulk-item-head">
                <span className="muted small">{i.position}.</span> <code className="bulk-wrap">{i.target}</code>{" "}
                <span className="muted small">{kindLabel(i.kind)}</span>{" "}
                <span className={`badge bulk-status-${i.status}`}>{STATUS_LABEL[i.status] ?? i.status}</span>{" "}
                <span className="muted small">
                  {i.units} unit{i.units === 1 ? "" : "s"}
                  {refundWords(i)}
                </span>
              </div>
              {i.summary ? <p className="small bulk-wrap">{summaryText(i.summary, i.kind)}</p> : null}
              {i.error ? <p className="small error">{i.error.message}</p> : null}
              {i.result ? (
                <details>
                  <summary className="small">Full answer</summary>
                  <pre className="bulk-json">{JSON.stringify(i.result, null, 2)}</pre>
                </details>
              ) : null}
              {i.result ? <SaveReportButton report={i.result} title={`${kindLabel(i.kind)}: ${i.target}`} /> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </>
  );
}
