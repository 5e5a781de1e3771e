"use client";
// The progress of an open bulk job: the bar and counts, the units reserved, refunded and charged, the downloads of
// its results (CSV from the server, JSON of the items read) and cancelling it, confirmed first.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { download } from "../_components/download";
import { ConfirmQuestion } from "../_components/ConfirmQuestion";
import { ErrorNote } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { duration, progressParts, STATUS_LABEL } from "./bulk-text";
import type { JobRead } from "./bulk-types";
import { BusyButton } from "../_components/BusyButton";

export function BulkProgress({ id, job, items }: { id: string; job: JobRead; items: JobRead | undefined }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [csvError, setCsvError] = useState<unknown>(null);
  // Once cancelled, the question and its buttons are gone: the focus goes to the progress line that says so.
  const progressText = useRef<HTMLParagraphElement>(null);
  const cancel = useMutation(
    trpc.jobs.cancel.mutationOptions({
      onSuccess: () => {
        setConfirming(false);
        progressText.current?.focus();
        void queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.account.overview.pathKey() });
      },
    }),
  );

  const downloadCsv = async () => {
    setCsvError(null);
    try {
      const csv = await queryClient.fetchQuery({ ...trpc.jobs.resultsCsv.queryOptions({ id }), staleTime: 0 });
      download(`${id}.csv`, csv, "text/csv;charset=utf-8");
    } catch (err) {
      setCsvError(err);
    }
  };
  const downloadJson = () => {
    if (!items) return;
    download(`${id}.json`, JSON.stringify(items, null, 2), "application/json");
  };

  return (
    <>
      <div className="bulk-progress">
        <div
          className="bulk-bar"
          role="progressbar"
          aria-label="Job progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={job.progress.percent}
          data-testid="bulk-progress"
        >
          <span style={{ width: `${job.progress.percent}%` }} />
        </div>
        <p className="small" data-testid="bulk-progress-text" ref={progressText} tabIndex={-1}>
          <strong>{job.progress.percent} %</strong> · {STATUS_LABEL[job.status] ?? job.status} ·{" "}
          {progressParts(job.progress).join(" · ")} · {duration(job.progress.elapsed_ms)} elapsed
          {job.status === "running" && job.progress.estimated_remaining_ms
            ? ` · about ${duration(job.progress.estimated_remaining_ms)} left`
            : ""}
        </p>
        <p className="small muted">
          Units: {job.units.reserved} reserved{job.units.refunded ? `, ${job.units.refunded} refunded` : ""},{" "}
          {job.units.charged} charged. Started by {job.created_by}. Kept until {formatUtc(job.expires_at)}.
        </p>
      </div>
      <div className="row">
        <button type="button" className="btn" onClick={() => void downloadCsv()} data-testid="bulk-csv">
          Download CSV
        </button>
        <button type="button" className="btn" onClick={downloadJson} disabled={!items} data-testid="bulk-json">
          Download JSON
        </button>
        {job.status === "running" && !confirming ? (
          <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)} data-confirm-trigger>
            Cancel job
          </button>
        ) : null}
      </div>
      {confirming ? (
        <ConfirmQuestion
          label="Cancel this job"
          className="notice bulk-confirm"
          block
          cancelLabel="Keep it running"
          question={
            <p>
              Cancel this job? The {job.progress.queued} target{job.progress.queued === 1 ? "" : "s"} not started yet
              will not run and their units come back; those running now finish.
            </p>
          }
          onCancel={() => setConfirming(false)}
        >
          <BusyButton
            type="button"
            className="btn btn-danger"
            onClick={() => cancel.mutate({ id })}
            busy={cancel.isPending}
            busyLabel="Cancelling…"
          >
            Yes, cancel the job
          </BusyButton>
        </ConfirmQuestion>
      ) : null}
      <ErrorNote error={cancel.error ?? csvError} />
    </>
  );
}
