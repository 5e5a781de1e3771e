"use client";
// Bulk jobs from the dashboard: paste or upload up to 100 targets, see each line's kind and the cost before
// starting, watch the job run, filter its results, download them as CSV or JSON, cancel it; and the list of the
// workspace's jobs. The same procedures as /v1/jobs.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { BULK_PLANS as bulkPlans, describePlans } from "../../../server/api/contract-text";
import { BULK_KINDS, KIND_LABELS, type BulkKind } from "../../../server/bulk/kind-labels";
import { download } from "../_components/download";
import { errorCode, ErrorNote } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { PlanGate } from "../_components/PlanGate";
import { SaveReportButton } from "../reports/SaveReportButton";
import "./bulk.css";

const MAX_TARGETS = 100;
/** Which plans have bulk jobs, from the plan catalog. */
const BULK_PLANS = `need ${describePlans(bulkPlans())}`;

/** Targets of a pasted or uploaded list: one per line (CSV: the first column); blanks and # comments left out. */
export function splitTargets(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) =>
      line
        .split(",")[0]!
        .trim()
        .replace(/^"(.*)"$/, "$1"),
    )
    .filter((t) => t.length > 0 && !t.startsWith("#"));
}

function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

const kindLabel = (k: string | null | undefined) =>
  k && k in KIND_LABELS ? KIND_LABELS[k as BulkKind] : k === "auto" ? "Automatic" : (k ?? "—");
const STATUS_LABEL: Record<string, string> = {
  queued: "Waiting",
  running: "Running",
  succeeded: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
  completed: "Completed",
};

function summaryText(summary: Record<string, unknown> | null | undefined): string {
  if (!summary) return "";
  return Object.entries(summary)
    .filter(([, v]) => v !== null && v !== "" && v !== undefined)
    .map(([k, v]) => `${k.replace(/_/g, " ")}: ${typeof v === "boolean" ? (v ? "yes" : "no") : String(v)}`)
    .join(" · ");
}

export function BulkView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const jobs = useQuery(trpc.jobs.list.queryOptions({ limit: 20 }));
  const [text, setText] = useState("");
  const [kind, setKind] = useState<"auto" | BulkKind>("auto");
  const [openId, setOpenId] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const targets = splitTargets(text);
  const estimate = useMutation(trpc.jobs.estimate.mutationOptions());
  const create = useMutation(
    trpc.jobs.create.mutationOptions({
      onSuccess: (job) => {
        setOpenId(job.id);
        void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.account.overview.pathKey() });
      },
    }),
  );

  // The cost of what is typed, checked on the server a moment after the last keystroke (never charged).
  const { mutate: runEstimate, reset: resetEstimate } = estimate;
  useEffect(() => {
    if (targets.length === 0 || targets.length > MAX_TARGETS) {
      resetEstimate();
      return;
    }
    const t = setTimeout(() => runEstimate({ kind, targets }), 350);
    return () => clearTimeout(t);
    // Only the text and kind restart the estimate; runEstimate is a new function on every render.
  }, [text, kind]);

  if (errorCode(jobs.error) === "BULK_LOOKUPS_REQUIRED") {
    return (
      <>
        <h1>Bulk jobs</h1>
        <PlanGate feature="Bulk jobs" plans={BULK_PLANS} />
      </>
    );
  }

  const est = estimate.data;
  const current = est && targets.length > 0;
  const problems = current ? est.lines.filter((l) => l.problem) : [];
  const canStart = current && problems.length === 0 && est.fits && !create.isPending && targets.length <= MAX_TARGETS;

  const onFile = async (file: File | undefined) => {
    setFileError(null);
    if (!file) return;
    if (file.size > 512 * 1024) {
      setFileError("That file is larger than 512 KB; a job holds at most 100 targets.");
      return;
    }
    setText(await file.text());
  };

  return (
    <>
      <h1>Bulk jobs</h1>
      <p className="muted small">
        Up to {MAX_TARGETS} lookups in one job: IP addresses, CIDR ranges, AS numbers, domains, email addresses, URLs,
        CVE ids and package URLs, mixed if you like. The whole cost is reserved when the job starts; targets that never
        run (cancelled, or refused before they ran) give their units back.
      </p>

      <section className="card" aria-labelledby="bulk-new">
        <h2 id="bulk-new">New job</h2>
        <form
          className="bulk-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (canStart) create.mutate({ kind, targets });
          }}
        >
          <label className="bulk-targets">
            Targets, one per line
            <textarea
              value={text}
              rows={8}
              spellCheck={false}
              placeholder={
                "8.8.8.8\n203.0.113.0/30\nAS15169\nexample.com\nsomeone@example.com\nhttps://example.com/\nCVE-2021-44228\npkg:npm/lodash@4.17.20"
              }
              onChange={(e) => setText(e.target.value)}
              data-testid="bulk-targets"
            />
          </label>
          <div className="bulk-side">
            <label>
              Lookup
              <select value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} data-testid="bulk-kind">
                <option value="auto">Automatic (from each target)</option>
                {BULK_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {KIND_LABELS[k]}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Or upload a .txt or .csv file
              <input
                type="file"
                accept=".txt,.csv,text/plain,text/csv"
                onChange={(e) => void onFile(e.target.files?.[0])}
              />
            </label>
            {fileError ? (
              <p className="error" role="alert">
                {fileError}
              </p>
            ) : null}
          </div>
          <div className="bulk-cost" aria-live="polite" data-testid="bulk-cost">
            {targets.length === 0 ? <p className="muted small">Paste targets to see the cost.</p> : null}
            {targets.length > MAX_TARGETS ? (
              <p className="error">
                {targets.length} targets: a job holds at most {MAX_TARGETS}. Split the list.
              </p>
            ) : null}
            {targets.length > 0 && targets.length <= MAX_TARGETS && !current ? (
              <p className="muted small">Checking the cost…</p>
            ) : null}
            {current ? (
              <p>
                <strong>{targets.length}</strong> target{targets.length === 1 ? "" : "s"} · <strong>{est.units}</strong>{" "}
                unit{est.units === 1 ? "" : "s"} ·{" "}
                <span className="muted">{est.remaining.toLocaleString("en")} left this month</span>
                {!est.fits ? <span className="error"> — not enough units left for this job</span> : null}
              </p>
            ) : null}
            {problems.length > 0 ? (
              <div className="bulk-problems" role="alert">
                <p>
                  {problems.length === 1 ? "One line needs" : `${problems.length} lines need`} fixing before the job can
                  start:
                </p>
                <ul>
                  {problems.slice(0, 20).map((l) => (
                    <li key={l.line}>
                      Line {l.line} <code>{l.target.slice(0, 80)}</code>: {l.problem}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            <ErrorNote error={estimate.error} />
          </div>
          <div className="row">
            <button type="submit" className="btn btn-primary" disabled={!canStart} data-testid="bulk-start">
              {create.isPending
                ? "Starting…"
                : current && est.units > 0
                  ? `Start job (${est.units} unit${est.units === 1 ? "" : "s"})`
                  : "Start job"}
            </button>
          </div>
          <ErrorNote error={create.error} />
        </form>
      </section>

      {openId ? <JobPanel id={openId} onClose={() => setOpenId(null)} /> : null}

      <section className="card" aria-labelledby="bulk-jobs">
        <h2 id="bulk-jobs">Jobs</h2>
        <ErrorNote error={jobs.error} />
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
                    <span className="sr-only">Open</span>
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
                      {STATUS_LABEL[j.status] ?? j.status} · {j.progress.succeeded} done
                      {j.progress.failed ? `, ${j.progress.failed} failed` : ""}
                      {j.progress.cancelled ? `, ${j.progress.cancelled} cancelled` : ""} of {j.progress.total}
                    </td>
                    <td data-label="Units">
                      {j.units.charged}
                      {j.units.refunded ? <span className="muted small"> ({j.units.refunded} refunded)</span> : null}
                    </td>
                    <td className="cell-actions">
                      <button type="button" className="btn" onClick={() => setOpenId(j.id)}>
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
    </>
  );
}

function JobPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const heading = useRef<HTMLHeadingElement>(null);
  const [statusFilter, setStatusFilter] = useState("");
  const [kindFilter, setKindFilter] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [csvError, setCsvError] = useState<unknown>(null);
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
  const cancel = useMutation(
    trpc.jobs.cancel.mutationOptions({
      onSuccess: () => {
        setConfirming(false);
        void queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.account.overview.pathKey() });
      },
    }),
  );
  useEffect(() => heading.current?.focus(), [id]);
  useEffect(() => {
    if (progress.data && progress.data.status !== "running") {
      void queryClient.invalidateQueries({ queryKey: trpc.jobs.list.pathKey() });
      // Items refused before admission were refunded: "units left" reads the usage again.
      void queryClient.invalidateQueries({ queryKey: trpc.account.overview.pathKey() });
    }
  }, [progress.data?.status, queryClient, trpc, progress.data]);

  const job = progress.data;
  const rows = (items.data?.items ?? []).filter(
    (i) => (!statusFilter || i.status === statusFilter) && (!kindFilter || i.kind === kindFilter),
  );
  const kinds = Object.keys(job?.kinds ?? {});

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
    if (!items.data) return;
    download(`${id}.json`, JSON.stringify(items.data, null, 2), "application/json");
  };

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
      <ErrorNote error={progress.error} />
      {progress.isPending ? (
        <p className="muted" role="status">
          Loading the job…
        </p>
      ) : null}
      {job ? (
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
            <p className="small" data-testid="bulk-progress-text">
              <strong>{job.progress.percent} %</strong> · {STATUS_LABEL[job.status] ?? job.status} ·{" "}
              {job.progress.succeeded} done · {job.progress.failed} failed ·{" "}
              {job.progress.queued + job.progress.running} remaining
              {job.progress.cancelled ? ` · ${job.progress.cancelled} cancelled` : ""} ·{" "}
              {duration(job.progress.elapsed_ms)} elapsed
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
            <button type="button" className="btn" onClick={downloadJson} disabled={!items.data} data-testid="bulk-json">
              Download JSON
            </button>
            {job.status === "running" && !confirming ? (
              <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)}>
                Cancel job
              </button>
            ) : null}
          </div>
          {confirming ? (
            <div className="notice bulk-confirm" role="alertdialog" aria-labelledby="bulk-confirm-text">
              <p id="bulk-confirm-text">
                Cancel this job? The {job.progress.queued} target{job.progress.queued === 1 ? "" : "s"} not started yet
                will not run and their units come back; those running now finish.
              </p>
              <div className="row">
                <button
                  type="button"
                  className="btn btn-danger"
                  onClick={() => cancel.mutate({ id })}
                  disabled={cancel.isPending}
                >
                  {cancel.isPending ? "Cancelling…" : "Yes, cancel the job"}
                </button>
                <button type="button" className="btn" onClick={() => setConfirming(false)}>
                  Keep it running
                </button>
              </div>
            </div>
          ) : null}
          <ErrorNote error={cancel.error ?? csvError} />

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
          <ErrorNote error={items.error} />
          {items.data && rows.length === 0 ? <p className="muted">No target matches this filter.</p> : null}
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
                      {i.refunded ? " (refunded)" : ""}
                    </span>
                  </div>
                  {i.summary ? <p className="small bulk-wrap">{summaryText(i.summary)}</p> : null}
                  {i.error ? <p className="small error">{i.error.message}</p> : null}
                  {i.result ? (
                    <details>
                      <summary className="small">Full answer</summary>
                      <pre className="bulk-json">{JSON.stringify(i.result, null, 2)}</pre>
                    </details>
                  ) : null}
                  {i.result ? <SaveReportButton report={i.result} title={`${i.kind} ${i.target}`} /> : null}
                </li>
              ))}
            </ol>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
