"use client";
// Saved fraud reports of the workspace: saving costs one unit; reading is free. Each report stays available until
// the expiry captured from the history window when it was saved; legacy reports without an expiry stay.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { describePlans, plansForCapability } from "../../../server/api/contract-text";
import { ErrorNote } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { AssessmentAnswer, asAssessment } from "../_components/AssessmentAnswer";
import { LookupAnswer } from "../_components/LookupAnswer";
import { useTRPC } from "../_components/trpc";
import { SaveReportForm } from "./SaveReportForm";

export function ReportsView({ initialOpen = null }: { initialOpen?: string | null }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState<string | null>(initialOpen);
  const list = useInfiniteQuery(
    trpc.reports.list.infiniteQueryOptions({ limit: 25 }, { getNextPageParam: (p) => p.nextCursor ?? undefined }),
  );
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const openReport = open ? items.find((r) => r.id === open) : undefined;

  return (
    <>
      <h1>Saved reports</h1>
      <p className="muted small">
        Save a fraud report (for example an assessment result) to keep it with the workspace. Saving needs{" "}
        {describePlans(plansForCapability("full"))} and uses one lookup unit; each report is hidden when it reaches the
        expiry set by the lookup history window at the time it was saved.
      </p>
      <SaveReportForm />
      <div className="card">
        <ErrorNote error={list.error} />
        <div className="table-scroll">
          <table className="list" data-testid="reports-table">
            <thead>
              <tr>
                <th>Title</th>
                <th>Request id</th>
                <th>Created</th>
                <th>Expires</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.id} data-testid="report-row">
                  <td>
                    {r.title}
                    {asAssessment(r.report) ? <span className="muted small"> · assessment</span> : null}
                  </td>
                  <td>{r.request_id ? <code>{r.request_id}</code> : "—"}</td>
                  <td>{formatUtc(r.created_at)}</td>
                  <td>{r.expires_at ? formatUtc(r.expires_at) : "never (legacy)"}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-ghost"
                      onClick={() => setOpen(open === r.id ? null : r.id)}
                    >
                      {open === r.id ? "Hide" : "View"}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {list.isPending ? <p className="muted small">Loading saved reports…</p> : null}
        {list.data && items.length === 0 ? <p className="muted small">No saved reports.</p> : null}
        {list.hasNextPage ? (
          <button
            type="button"
            className="btn btn-ghost"
            disabled={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
          >
            Load more
          </button>
        ) : null}
      </div>
      {openReport ? <OpenReport title={openReport.title} report={openReport.report} /> : null}
    </>
  );
}

/** An assessment reopens as the same answer it was saved from; any other report as a readable structure. */
function OpenReport({ title, report }: { title: string; report: Record<string, unknown> }) {
  const assessment = asAssessment(report);
  return (
    <section data-testid="open-report">
      <h2>{title}</h2>
      {assessment ? <AssessmentAnswer result={assessment} /> : <LookupAnswer value={report} />}
    </section>
  );
}
