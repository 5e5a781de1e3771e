"use client";
// The new-job form of the bulk page: paste or upload up to 100 targets, see each line's problem and the cost
// (checked on the server, never charged) before starting; a started job is handed to the page to open.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { BULK_KINDS, KIND_LABELS, type BulkKind } from "../../../server/bulk/kind-labels";
import { ErrorNote } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { MAX_TARGETS, splitTargets } from "./bulk-text";
import { BusyButton } from "../_components/BusyButton";

export function BulkForm({ onStarted }: { onStarted: (jobId: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [kind, setKind] = useState<"auto" | BulkKind>("auto");
  const [fileError, setFileError] = useState<string | null>(null);
  const targets = splitTargets(text);
  const estimate = useMutation(trpc.jobs.estimate.mutationOptions());
  const create = useMutation(
    trpc.jobs.create.mutationOptions({
      onSuccess: (job) => {
        onStarted(job.id);
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

  const est = estimate.data;
  const current = est && targets.length > 0;
  const problems = current ? est.lines.filter((l) => l.problem) : [];
  const canStart = current && problems.length === 0 && est.fits && targets.length <= MAX_TARGETS;

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
    <section className="card" aria-labelledby="bulk-new">
      <h2 id="bulk-new">New job</h2>
      <form
        className="bulk-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (canStart && !create.isPending) create.mutate({ kind, targets });
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
          <BusyButton
            type="submit"
            className="btn btn-primary"
            disabled={!canStart}
            busy={create.isPending}
            busyLabel="Starting…"
            data-testid="bulk-start"
          >
            {current && est.units > 0 ? `Start job (${est.units} unit${est.units === 1 ? "" : "s"})` : "Start job"}
          </BusyButton>
        </div>
        <ErrorNote error={create.error} />
      </form>
    </section>
  );
}
