"use client";
// The workspace's investigation events (GET /v1/events through the dashboard's tRPC endpoint): search on the indexed
// fields, filters by type and time, a detail panel per event, and the same formula-safe CSV as /v1/events.csv for the
// current filter. "Activity" is the audit trail preset (type `audit.`): who changed what in the account.
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { download } from "../_components/download";
import { ErrorNote } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import "./events.css";
import {
  actorText,
  changedFields,
  eventSummary,
  eventTitle,
  targetText,
  TYPE_PRESETS,
  valueText,
  type EventRecord,
} from "./describe";

type View = "all" | "activity";
const RANGES = [
  { value: "1", label: "Last 24 hours" },
  { value: "7", label: "Last 7 days" },
  { value: "30", label: "Last 30 days" },
  { value: "90", label: "Last 90 days" },
  { value: "all", label: "All time" },
  { value: "custom", label: "Custom range" },
] as const;

type Filter = { query: string; type: string; range: string; from: string; to: string };

/** The API's filter for the form's values; dates are whole UTC days, `to` inclusive. */
function apiFilter(f: Filter, view: View) {
  const type = view === "activity" ? (f.type.startsWith("audit.") ? f.type : "audit.") : f.type;
  let since: string | undefined;
  let until: string | undefined;
  if (f.range === "custom") {
    if (f.from) since = `${f.from}T00:00:00.000Z`;
    if (f.to) until = new Date(Date.parse(`${f.to}T00:00:00.000Z`) + 86_400_000).toISOString();
  } else if (f.range !== "all") {
    since = new Date(Date.now() - Number(f.range) * 86_400_000).toISOString();
  }
  return { query: f.query.trim() || undefined, type: type || undefined, since, until };
}

export function EventsView({ initialView, initialQuery }: { initialView: View; initialQuery: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [view, setView] = useState<View>(initialView);
  const [form, setForm] = useState<Filter>({ query: initialQuery, type: "", range: "30", from: "", to: "" });
  const [applied, setApplied] = useState<Filter>(form);
  const [open, setOpen] = useState<EventRecord | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(null);
  // `since` for a relative range is fixed when the filter is applied, so paging does not drift.
  const filter = useMemo(() => apiFilter(applied, view), [applied, view]);
  const events = useInfiniteQuery(
    trpc.workspace.events.infiniteQueryOptions(
      { ...filter, limit: 25 },
      { getNextPageParam: (p) => p.nextCursor ?? undefined },
    ),
  );
  const items = (events.data?.pages.flatMap((p) => p.items) ?? []) as EventRecord[];
  const presets =
    view === "activity" ? TYPE_PRESETS.filter((p) => p.value === "" || p.value.startsWith("audit.")) : TYPE_PRESETS;

  const switchView = (v: View) => {
    setView(v);
    const next = { ...form, type: "" };
    setForm(next);
    setApplied(next);
    setOpen(null);
    const url = new URL(window.location.href);
    if (v === "activity") url.searchParams.set("view", "activity");
    else url.searchParams.delete("view");
    window.history.replaceState(null, "", url);
  };

  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const csv = await queryClient.fetchQuery({ ...trpc.workspace.eventsCsv.queryOptions(filter), staleTime: 0 });
      download(`${view === "activity" ? "activity" : "events"}-${new Date().toISOString().slice(0, 10)}.csv`, csv);
    } catch (err) {
      setExportError(err);
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <h1>{view === "activity" ? "Activity" : "Events"}</h1>
      <p className="muted small">
        {view === "activity"
          ? "Every change to this account: plans, API keys, members, webhooks, rules and senders, with who made it and what changed. Secrets are never recorded."
          : "Assessments, protected-link activity, webhook deliveries and account changes of this workspace, newest first. Events are kept for at least 90 days, longer when the plan's history window is longer."}
      </p>
      <div className="events-tabs" role="tablist" aria-label="Events view">
        {(["all", "activity"] as const).map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            id={`events-tab-${v}`}
            aria-selected={view === v}
            className={view === v ? "events-tab active" : "events-tab"}
            onClick={() => switchView(v)}
          >
            {v === "all" ? "All events" : "Activity"}
          </button>
        ))}
      </div>

      <form
        className="card events-filters"
        aria-label="Filter events"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ ...form });
        }}
      >
        <label className="events-search">
          Search
          <input
            type="search"
            value={form.query}
            placeholder="request id, IP, email, domain, rule id or actor"
            maxLength={320}
            onChange={(e) => setForm({ ...form, query: e.target.value })}
          />
        </label>
        <label>
          Type
          <select value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value })}>
            {presets.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Time
          <select value={form.range} onChange={(e) => setForm({ ...form, range: e.target.value })}>
            {RANGES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        {form.range === "custom" ? (
          <>
            <label>
              From (UTC)
              <input type="date" value={form.from} onChange={(e) => setForm({ ...form, from: e.target.value })} />
            </label>
            <label>
              To (UTC, inclusive)
              <input type="date" value={form.to} onChange={(e) => setForm({ ...form, to: e.target.value })} />
            </label>
          </>
        ) : null}
        <div className="row events-actions">
          <button type="submit" className="btn btn-primary">
            Apply
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => void exportCsv()}
            disabled={exporting}
            data-testid="export-csv"
          >
            {exporting ? "Preparing CSV…" : "Export CSV"}
          </button>
        </div>
      </form>
      <ErrorNote error={exportError} />

      <section className="card" aria-busy={events.isFetching}>
        <ErrorNote error={events.error} />
        {events.isPending ? (
          <p className="muted" role="status">
            Loading events…
          </p>
        ) : null}
        {events.data && items.length === 0 ? (
          <p className="muted" data-testid="events-empty">
            {applied.query || applied.type || applied.range === "custom"
              ? "No event matches this filter. Search matches whole values: a full IP address, email, domain, request id or rule id."
              : view === "activity"
                ? "No account changes in this period."
                : "No events in this period yet. Assessments, protected links and account changes appear here as they happen."}
          </p>
        ) : null}
        {items.length > 0 ? (
          <ul className="event-list" data-testid="events-list">
            {items.map((e) => (
              <li key={e.id} data-testid="event-row" data-type={e.type}>
                <button type="button" className="event-open" aria-haspopup="dialog" onClick={() => setOpen(e)}>
                  <span className="event-title">{eventTitle(e.type)}</span>
                  <span className="event-time muted small">{formatUtc(e.created_at)}</span>
                  <span className="event-summary small">{eventSummary(e)}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {events.hasNextPage ? (
          <button
            type="button"
            className="btn btn-ghost"
            disabled={events.isFetchingNextPage}
            onClick={() => void events.fetchNextPage()}
          >
            {events.isFetchingNextPage ? "Loading…" : "Load more"}
          </button>
        ) : null}
      </section>
      {open ? <EventDrawer event={open} onClose={() => setOpen(null)} /> : null}
    </>
  );
}

function EventDrawer({ event: e, onClose }: { event: EventRecord; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [raw, setRaw] = useState(false);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    heading.current?.focus();
    const onKey = (k: KeyboardEvent) => {
      if (k.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      opener?.focus();
    };
  }, [e.id, onClose]);
  const d = (e.data ?? {}) as Record<string, unknown>;
  const audit = e.type.startsWith("audit.");
  const changes = audit ? changedFields(d.before, d.after) : [];
  const fields: [string, string | null][] = [
    ["When", formatUtc(e.created_at)],
    ["Request id", e.requestId],
    ["IP address", e.ip],
    ["Email", e.email],
    ["Domain", e.domain],
    ["Rule", e.rule],
  ];
  return (
    <aside
      className="event-drawer"
      role="dialog"
      aria-modal="true"
      aria-labelledby="event-drawer-title"
      data-testid="event-drawer"
    >
      <div className="row-between">
        <h2 id="event-drawer-title" tabIndex={-1} ref={heading}>
          {eventTitle(e.type)}
        </h2>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="small">{eventSummary(e)}</p>
      <table className="rv-table">
        <tbody>
          {audit ? (
            <>
              <tr>
                <th>Changed by</th>
                <td data-testid="event-actor">{actorText(d.actor, e.actor)}</td>
              </tr>
              {targetText(d.target) ? (
                <tr>
                  <th>What</th>
                  <td>{targetText(d.target)}</td>
                </tr>
              ) : null}
              {typeof d.user_agent === "string" ? (
                <tr>
                  <th>Browser or client</th>
                  <td className="break">{d.user_agent}</td>
                </tr>
              ) : null}
            </>
          ) : null}
          {fields
            .filter(([, v]) => v)
            .map(([k, v]) => (
              <tr key={k}>
                <th>{k}</th>
                <td className="break">{v}</td>
              </tr>
            ))}
        </tbody>
      </table>
      {audit && changes.length > 0 ? (
        <>
          <h3>Change</h3>
          <div className="table-scroll">
            <table className="list" data-testid="event-changes">
              <thead>
                <tr>
                  <th>Field</th>
                  <th>Before</th>
                  <th>After</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((c) => (
                  <tr key={c.field}>
                    <td>{c.field.replace(/_/g, " ")}</td>
                    <td className="break">{valueText(c.before)}</td>
                    <td className="break">{valueText(c.after)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <button type="button" className="link-button small" aria-expanded={raw} onClick={() => setRaw(!raw)}>
        {raw ? "Hide the record" : "Show the whole record"}
      </button>
      {raw ? (
        <pre className="raw-json" data-testid="event-raw">
          {JSON.stringify(e, null, 2)}
        </pre>
      ) : null}
    </aside>
  );
}
