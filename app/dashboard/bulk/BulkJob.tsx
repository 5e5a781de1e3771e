"use client";
// One bulk job, opened from the form or the list: its progress (polled while it runs) and its results, each read
// with the same procedure as GET /v1/jobs/{id}; the items are read again whenever more of them have finished.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { ReadFailed } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { useFocusOnArrival } from "../_components/useFocusOnArrival";
import { BulkProgress } from "./BulkProgress";
import { BulkResults } from "./BulkResults";

export function BulkJob({ id, onClose }: { id: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // A job opened (from the form's Start or the list's Open) puts the focus on its heading: the pressed button is
  // behind it. Once per job, as every page of the dashboard does it: never again on a poll of its progress.
  const heading = useFocusOnArrival<HTMLHeadingElement>(id);
  // Progress every second while the job runs; the items again whenever the count of finished ones changes.
  const progress = useQuery({
    ...trpc.jobs.get.queryOptions({ id, limit: 0 }),
    refetchInterval: (q) =>
      q.state.data?.status === "running" || (q.state.data && q.state.data.progress.running > 0) ? 1000 : false,
  });
  const done = progress.data?.progress.done ?? 0;
  const items = useQuery(trpc.jobs.get.queryOptions({ id, limit: 100 }));
  const { refetch: refetchItems } = items;
  useEffect(() => {
    if (done > 0) void refetchItems();
  }, [done, refetchItems]);
  useEffect(() => {
    if (progress.data && progress.data.status !== "running") {
      void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.pathKey() });
      // Items refused before admission were refunded: "units left" reads the usage again.
      void queryClient.invalidateQueries({ queryKey: trpc.account.overview.pathKey() });
    }
  }, [progress.data?.status, queryClient, trpc, progress.data]);

  const job = progress.data;

  return (
    <section className="card bulk-job" aria-labelledby="bulk-job-title" data-testid="bulk-job">
      <div className="row-between">
        <h2 id="bulk-job-title" ref={heading} tabIndex={-1}>
          Job {job ? `of ${formatUtc(job.created_at)}` : ""}
        </h2>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      <ReadFailed what="The job" query={progress} />
      {progress.isPending ? (
        <p className="muted" role="status">
          Loading the job…
        </p>
      ) : null}
      {job ? (
        <>
          <BulkProgress id={id} job={job} items={items.data} />
          <BulkResults
            job={job}
            items={items.data}
            error={items.error}
            onRetry={() => items.refetch()}
            retrying={items.isFetching}
          />
        </>
      ) : null}
    </section>
  );
}
