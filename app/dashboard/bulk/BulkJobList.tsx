"use client";
// The workspace's bulk jobs (the same procedure as GET /v1/jobs): when, by whom, what kind, how far and what they
// cost, each with a button that opens it.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { ReadFailed } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { keepIn } from "../_components/keep-in";
import { useTRPC } from "../_components/trpc";
import { kindLabel, progressParts, STATUS_LABEL } from "./bulk-text";

export function BulkJobList({
  onOpen,
  focusJob,
  onFocused,
}: {
  onOpen: (jobId: string) => void;
  /** A job whose panel was just closed: its Open button takes the focus (the list's heading if it is not listed). */
  focusJob: string | null;
  onFocused: () => void;
}) {
  const trpc = useTRPC();
  const jobs = useQuery(trpc.jobs.list.queryOptions({ limit: 20 }));
  const heading = useRef<HTMLHeadingElement>(null);
  const openButtons = useRef(new Map<string, HTMLButtonElement>());
  useEffect(() => {
    if (!focusJob || !jobs.data) return;
    (openButtons.current.get(focusJob) ?? heading.current)?.focus();
    onFocused();
  }, [focusJob, jobs.data, onFocused]);
  return (
    <section className="card" aria-labelledby="bulk-jobs">
      <h2 id="bulk-jobs" ref={heading} tabIndex={-1}>
        Jobs
      </h2>
      <ReadFailed what="The jobs" query={jobs} />
      {jobs.isPending ? (
        <p className="muted" role="status">
          Loading jobs…
        </p>
      ) : null}
      {jobs.data && jobs.data.items.length === 0 ? (
        <p className="muted" data-testid="bulk-jobs-empty">
          No jobs yet. Jobs and their results are kept for the plan&apos;s lookup history window.
        </p>
      ) : null}
      {jobs.data && jobs.data.items.length > 0 ? (
        <div className="table-scroll">
          <table className="list cards" data-testid="bulk-job-list">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">By</th>
                <th scope="col">Lookup</th>
                <th scope="col">Progress</th>
                <th scope="col">Units</th>
                <th scope="col">
                  <span className="visually-hidden">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {jobs.data.items.map((j) => (
                <tr key={j.id}>
                  <td data-label="Started">{formatUtc(j.created_at)}</td>
                  <td className="bulk-wrap" data-label="By">
                    {j.created_by}
                  </td>
                  <td data-label="Lookup">{kindLabel(j.kind)}</td>
                  <td data-label="Progress">
                    {STATUS_LABEL[j.status] ?? j.status} · {progressParts(j.progress).join(", ")} of {j.progress.total}
                  </td>
                  <td data-label="Units">
                    {j.units.charged}
                    {j.units.refunded ? <span className="muted small"> ({j.units.refunded} refunded)</span> : null}
                  </td>
                  <td className="cell-actions">
                    <button
                      type="button"
                      className="btn"
                      ref={keepIn(openButtons.current, j.id)}
                      onClick={() => onOpen(j.id)}
                    >
                      Open
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
