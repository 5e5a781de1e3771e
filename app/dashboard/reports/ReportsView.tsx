"use client";
// Saved fraud reports of the workspace: saving costs one unit; reading is free. Each report stays available until
// the expiry captured from the history window when it was saved; legacy reports without an expiry stay. Owners and
// a report's author may rename or delete it. A report that cannot be rendered never takes the page down.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { describePlans, plansForCapability } from "../../../server/api/contract-text";
import { Gated } from "../_components/PlanGate";
import { ReadFailed, retryRead } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { ReportBody, asFullAssessment } from "./ReportBody";
import { ReportRowActions } from "./ReportRowActions";
import { SaveReportForm } from "./SaveReportForm";
import "./row-cards.css";
import { BusyButton } from "../_components/BusyButton";
import { useDoneNotice } from "../_components/DoneNotice";
import { useFocusNewRows } from "../_components/useFocusNewRows";

export function ReportsView({ initialOpen = null }: { initialOpen?: string | null }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState<string | null>(initialOpen);
  // A deleted report's row goes, with the button pressed in it: a line says which and takes the focus.
  const done = useDoneNotice();
  const list = useInfiniteQuery(
    trpc.reports.list.infiniteQueryOptions({ limit: 25 }, { getNextPageParam: (p) => p.nextCursor ?? undefined }),
  );
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const more = useFocusNewRows<HTMLTableSectionElement>(items.length);
  const openReport = open ? items.find((r) => r.id === open) : undefined;

  return (
    <>
      <h1>Saved reports</h1>
      <p className="muted small">
        Save a fraud report (for example an assessment result) to keep it with the workspace: use “Save report” on any
        result, or load an assessment here. Saving needs {describePlans(plansForCapability("full"))} and uses one lookup
        unit; each report is hidden when it reaches the expiry set by the lookup history window at the time it was
        saved.
      </p>
      <Gated capability="full" feature="Saving reports">
        <SaveReportForm />
      </Gated>
      <div className="card">
        <h2>Reports</h2>
        <ReadFailed
          what={list.isFetchNextPageError ? "The next reports" : "The reports"}
          error={list.error}
          onRetry={retryRead(list)}
          retrying={list.isFetching}
        />
        {done.notice}
        <table className="list cards" data-testid="reports-table">
          <thead>
            <tr>
              <th>Title</th>
              <th>Request id</th>
              <th>Created</th>
              <th>Expires</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody ref={more.list}>
            {items.map((r) => (
              <tr key={r.id} data-testid="report-row">
                <td data-label="Title">
                  {/* One element for the value, so the narrow card keeps the kind beside the title, not under the label. */}
                  <span>
                    {r.title}
                    {asFullAssessment(r.report) ? <span className="muted small"> · assessment</span> : null}
                  </span>
                </td>
                <td data-label="Request id">{r.request_id ? <code>{r.request_id}</code> : "—"}</td>
                <td data-label="Created">{formatUtc(r.created_at)}</td>
                <td data-label="Expires">{r.expires_at ? formatUtc(r.expires_at) : "never (legacy)"}</td>
                <td className="row-actions cell-actions">
                  <button
                    type="button"
                    className="btn"
                    aria-expanded={open === r.id}
                    onClick={() => setOpen(open === r.id ? null : r.id)}
                  >
                    {open === r.id ? "Hide" : "View"}
                  </button>
                  <ReportRowActions
                    id={r.id}
                    title={r.title}
                    onDeleted={() => {
                      if (open === r.id) setOpen(null);
                      done.say(`Deleted “${r.title}”.`);
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.isPending ? <p className="muted small">Loading saved reports…</p> : null}
        {list.data && items.length === 0 ? (
          <p className="muted small">No saved reports yet. Save one from any result, or load an assessment above.</p>
        ) : null}
        {list.hasNextPage ? (
          <BusyButton
            type="button"
            className="btn btn-ghost"
            busy={list.isFetchingNextPage}
            onClick={() => more.loadMore(() => list.fetchNextPage())}
          >
            Load more
          </BusyButton>
        ) : null}
      </div>
      {openReport ? (
        <section data-testid="open-report">
          <h2>{openReport.title}</h2>
          <ReportBody report={openReport.report} />
        </section>
      ) : null}
    </>
  );
}
