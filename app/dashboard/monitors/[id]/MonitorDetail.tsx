"use client";
// One monitor: each check's state in words, "Run now" (with its cost said first), edit, delete with a
// confirmation, the alert settings and the timeline.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { carryDoneNotice, useDoneNotice } from "../../_components/DoneNotice";
import { ConfirmQuestion } from "../../_components/ConfirmQuestion";
import { ErrorNote, ReadFailed, errorCode } from "../../_components/ErrorNote";
import { formatUtc } from "../../_components/format";
import { useTRPC } from "../../_components/trpc";
import { AlertSettings } from "../AlertSettings";
import { CheckStates } from "../CheckStates";
import { MonitorForm } from "../MonitorForm";
import { Timeline } from "../Timeline";
import { RunCost } from "./RunCost";
import { INTERVAL_WORDS } from "../../../../server/monitors/state-words";
import "../monitors.css";
import { BusyButton } from "../../_components/BusyButton";

export function MonitorDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const monitor = useQuery(trpc.monitors.get.queryOptions({ id }));
  // The latest run, so "Now" agrees with it: a check it could not make says so (the timeline shows every run).
  const latest = useQuery(trpc.monitors.runs.queryOptions({ id, limit: 1 }));
  // A monitor just created on the New monitor page: a line says so and takes the focus (the form went with that page).
  const done = useDoneNotice();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Saving an edit closes the form with the button pressed in it: the focus goes back to Edit, which opened it.
  const editButton = useRef<HTMLButtonElement>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.monitors.pathKey() });
  const run = useMutation(trpc.monitors.run.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(
    trpc.monitors.delete.mutationOptions({
      onSuccess: () => {
        refresh();
        // The list says which monitor went, with the focus on that line (the button pressed is gone).
        const m = monitor.data;
        carryDoneNotice("/dashboard/monitors", m ? `Deleted “${m.name ?? m.target}”.` : "Deleted the monitor.");
        router.push("/dashboard/monitors");
      },
    }),
  );
  const back = (
    <p className="small">
      <Link href="/dashboard/monitors">← Monitors</Link>
    </p>
  );
  if (monitor.isPending)
    return (
      <>
        {back}
        <p className="muted" role="status">
          Loading the monitor…
        </p>
      </>
    );
  if (!monitor.data)
    return (
      <>
        {back}
        <h1>Monitor</h1>
        {errorCode(monitor.error) === "NOT_FOUND" ? (
          <p>This monitor does not exist in this workspace (it may have been deleted).</p>
        ) : (
          <ReadFailed what="The monitor" query={monitor} />
        )}
      </>
    );
  const m = monitor.data;
  const lastRun = latest.data?.items[0];
  return (
    <>
      {back}
      <h1 className="break">{m.name ?? m.target}</h1>
      <p className="muted small">
        {m.name ? `${m.target} · ` : ""}
        {INTERVAL_WORDS[m.interval]} · {m.status === "paused" ? "paused" : `next run ${formatUtc(m.next_run_at)}`} ·
        last run {m.last_run_at ? formatUtc(m.last_run_at) : "not yet"}
      </p>
      {done.notice}
      {m.status === "paused" ? (
        <p className="notice" data-testid="monitor-paused">
          Paused: this workspace has more monitors than its plan now holds, so the newest ones stopped running. It runs
          again when the plan holds it, or when you delete another monitor.
        </p>
      ) : null}
      <section className="card" aria-labelledby="now-heading">
        <h2 id="now-heading">Now</h2>
        <CheckStates
          checks={m.checks}
          states={m.states}
          lastRun={lastRun ? { at: lastRun.started_at, results: lastRun.results } : null}
          ranBefore={m.last_run_at !== null}
          detailed
        />
        <ReadFailed what="The latest run" query={latest} className="error small" testId="latest-run-error" />
        <div className="row" style={{ marginTop: "0.75rem" }}>
          <BusyButton
            type="button"
            className="btn btn-primary"
            disabled={m.status === "paused"}
            busy={run.isPending}
            busyLabel="Running…"
            onClick={() => run.mutate({ id })}
            aria-describedby="run-cost"
          >
            Run now
          </BusyButton>
          <button
            type="button"
            className="btn"
            onClick={() => setEditing(!editing)}
            aria-expanded={editing}
            ref={editButton}
          >
            {editing ? "Close the form" : "Edit"}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)} data-confirm-trigger>
            Delete
          </button>
        </div>
        <RunCost monitor={m} />
        <ErrorNote error={run.error} />
        {confirming ? (
          <ConfirmQuestion
            className="notice"
            block
            label={`Delete ${m.name ?? m.target}`}
            question={<p>Delete this monitor, its runs and its alerts? This cannot be undone.</p>}
            onCancel={() => setConfirming(false)}
            footer={<ErrorNote error={remove.error} />}
          >
            <BusyButton
              type="button"
              className="btn btn-danger"
              busy={remove.isPending}
              onClick={() => remove.mutate({ id })}
              data-testid="confirm-delete"
            >
              Delete monitor
            </BusyButton>
          </ConfirmQuestion>
        ) : null}
      </section>
      {editing ? (
        <section className="card" aria-label="Edit the monitor">
          <h2>Edit</h2>
          <MonitorForm initial={m} onSaved={() => (setEditing(false), editButton.current?.focus())} />
        </section>
      ) : null}
      <AlertSettings id={id} emailAlerts={m.email_alerts} />
      <Timeline id={id} />
    </>
  );
}
