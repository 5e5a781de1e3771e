"use client";
// A monitor's runs and alerts, newest first, in words: each alert with its state before → after, reminders and
// resolutions, skipped runs with their reason; "Load more" reads the next page of both.
import { useInfiniteQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { alertRecordSchema, runRecordSchema } from "../../../server/monitors/schemas";
import { ReadFailed } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { CheckDot } from "./CheckStates";
import { checkLabel, SEVERITY_WORDS, stateWords } from "../../../server/monitors/state-words";
import { BusyButton } from "../_components/BusyButton";

type Run = z.infer<typeof runRecordSchema>;
type Alert = z.infer<typeof alertRecordSchema>;
type Entry = { at: string; run?: Run; alert?: Alert };

const PAGE = 20;

/**
 * What an alert's state was before. A check's first run has none; a project check's alert is one finding, which had
 * no state before whichever run found it (its `before` is always null), so "first run" would be wrong there.
 */
function beforeWords(a: Alert): string {
  if (a.before) return stateWords(a.check, a.before);
  return a.check === "project" ? "not found before" : "first run";
}

export function AlertEntry({ a }: { a: Alert }) {
  const title =
    a.type === "monitor.skipped"
      ? "Run skipped"
      : a.type === "monitor.resolved"
        ? `${checkLabel(a.check)} resolved`
        : `${checkLabel(a.check)} ${a.reminder ? "still" : "changed"} (${a.severity === "info" ? "for information" : a.severity})`;
  return (
    <li className="timeline-item" data-testid="timeline-alert" data-check={a.check} data-type={a.type}>
      <strong>{title}</strong> <span className="muted small">{formatUtc(a.created_at)}</span>
      {a.reminder ? <div className="small">Reminder: this has not changed back since it was first alerted.</div> : null}
      {a.type === "monitor.skipped" ? (
        <p className="alert-change">{String(a.after?.reason ?? "The allowance could not pay for the run.")}</p>
      ) : (
        <p className="alert-change" data-testid="alert-change">
          {beforeWords(a)} → {stateWords(a.check, a.after)}
        </p>
      )}
      {a.open && a.type === "monitor.alert" ? <div className="small">Still open.</div> : null}
    </li>
  );
}

function RunEntry({ r }: { r: Run }) {
  if (r.status === "skipped")
    return (
      <li className="timeline-item" data-testid="timeline-run">
        <strong>Run skipped</strong> <span className="muted small">{formatUtc(r.started_at)}</span>
        <p className="alert-change">{r.reason}</p>
      </li>
    );
  return (
    <li className="timeline-item" data-testid="timeline-run">
      <strong>Run</strong>{" "}
      <span className="muted small">
        {formatUtc(r.started_at)} · {r.units} {r.units === 1 ? "unit" : "units"}
        {r.alerts.length ? ` · ${r.alerts.length} ${r.alerts.length === 1 ? "alert" : "alerts"}` : " · no change"}
      </span>
      <ul className="check-states">
        {Object.entries(r.results ?? {}).map(([check, res]) => (
          <li key={check} className="check-state">
            <CheckDot severity={res.severity} />
            <span>
              {checkLabel(check)}:{" "}
              {res.error ? `could not check (${res.error.message})` : SEVERITY_WORDS[res.severity ?? "none"]}
              {res.state ? <span className="muted"> — {stateWords(check, res.state)}</span> : null}
            </span>
          </li>
        ))}
      </ul>
      <details className="small">
        <summary>Details</summary>
        <pre className="raw-json">{JSON.stringify(r.results, null, 2)}</pre>
      </details>
    </li>
  );
}

export function Timeline({ id }: { id: string }) {
  const trpc = useTRPC();
  const runs = useInfiniteQuery(
    trpc.monitors.runs.infiniteQueryOptions(
      { id, limit: PAGE },
      { getNextPageParam: (p) => p.next_cursor ?? undefined },
    ),
  );
  const alerts = useInfiniteQuery(
    trpc.monitors.alerts.infiniteQueryOptions(
      { id, limit: PAGE },
      { getNextPageParam: (p) => p.next_cursor ?? undefined },
    ),
  );
  const entries: Entry[] = [
    ...(runs.data?.pages.flatMap((p) => p.items) ?? []).map((run): Entry => ({ at: run.started_at, run })),
    ...(alerts.data?.pages.flatMap((p) => p.items) ?? []).map((alert): Entry => ({ at: alert.created_at, alert })),
  ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.alert ? -1 : 1));
  const more = runs.hasNextPage || alerts.hasNextPage;
  return (
    <section className="card" aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      {/* A failed read is said with Retry, never as "No runs yet." (which is only for a monitor that never ran). */}
      {runs.isError || alerts.isError ? (
        <ReadFailed
          what="The timeline"
          error={runs.error ?? alerts.error}
          testId="timeline-error"
          onRetry={() => Promise.all([runs.isError && runs.refetch(), alerts.isError && alerts.refetch()])}
          retrying={runs.isFetching || alerts.isFetching}
        />
      ) : runs.isPending || alerts.isPending ? (
        <p className="muted" role="status">
          Loading the timeline…
        </p>
      ) : entries.length === 0 ? (
        <p className="muted" data-testid="timeline-empty">
          No runs yet. The first runs at the next scheduled time, or now with “Run now”.
        </p>
      ) : null}
      <ol className="timeline" data-testid="timeline">
        {entries.map((e) =>
          e.alert ? <AlertEntry key={e.alert.id} a={e.alert} /> : <RunEntry key={e.run!.id} r={e.run!} />,
        )}
      </ol>
      {more ? (
        <BusyButton
          type="button"
          className="btn"
          busy={runs.isFetchingNextPage || alerts.isFetchingNextPage}
          onClick={() => {
            if (runs.hasNextPage) void runs.fetchNextPage();
            if (alerts.hasNextPage) void alerts.fetchNextPage();
          }}
        >
          Load more
        </BusyButton>
      ) : null}
    </section>
  );
}
