"use client";
// The workspace's investigation events (GET /v1/events through the dashboard's tRPC endpoint): search on the indexed
// fields, filters by type and time, a detail panel per event, and the same formula-safe CSV as /v1/events.csv for the
// current filter. "Activity" is the audit trail preset (type `audit.`): who changed what in the account.
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import {
  customBounds,
  DateRangeFilter,
  presetSince,
  rangeProblem,
  type DateRange,
} from "../_components/DateRangeFilter";
import { download } from "../_components/download";
import { ErrorNote, ReadFailed, retryRead } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import "./events.css";
import { eventSummary, eventTitle, TYPE_PRESETS, type EventRecord, type KeyNames } from "./describe";
import { EventDrawer } from "./EventDrawer";
import { BusyButton } from "../_components/BusyButton";
import { useFocusNewRows } from "../_components/useFocusNewRows";

type View = "all" | "activity";
type Filter = DateRange & { query: string; type: string };

/** The API's filter for the form's values; dates are whole UTC days, `to` inclusive. */
function apiFilter(f: Filter, view: View) {
  const type = view === "activity" ? (f.type.startsWith("audit.") ? f.type : "audit.") : f.type;
  const { since, until } = f.range === "custom" ? customBounds(f.from, f.to) : { since: presetSince(f.range) };
  return {
    query: f.query.trim() || undefined,
    type: type || undefined,
    since: since?.toISOString(),
    until: until?.toISOString(),
  };
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
  const more = useFocusNewRows<HTMLUListElement>(items.length);
  // A change made with an API key is said by the key's name and prefix, as the keys page lists them.
  const keyList = useQuery(trpc.account.keys.queryOptions());
  const keys: KeyNames = useMemo(
    () => new Map((keyList.data ?? []).map((k) => [k.id, `“${k.name}” (${k.prefix}…)`])),
    [keyList.data],
  );
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
          : "Assessments and their outcome labels, review-case resolutions, monitor alerts, protected-link activity, webhook deliveries and account changes of this workspace, newest first. Events are kept for at least 90 days, longer when the plan's history window is longer."}
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
          // Dates the filter marks as wrong are not applied; it says why under them.
          if (rangeProblem(form) === null) setApplied({ ...form });
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
        <DateRangeFilter value={form} onChange={(r) => setForm({ ...form, ...r })} testIdPrefix="events" />
        <div className="row events-actions">
          <button type="submit" className="btn btn-primary">
            Apply
          </button>
          <BusyButton
            type="button"
            className="btn"
            onClick={() => void exportCsv()}
            busy={exporting}
            busyLabel="Preparing CSV…"
            data-testid="export-csv"
          >
            Export CSV
          </BusyButton>
        </div>
      </form>
      <ErrorNote error={exportError} />

      <section className="card" aria-busy={events.isFetching}>
        <ReadFailed
          what={events.isFetchNextPageError ? "The next events" : "The events"}
          error={events.error}
          onRetry={retryRead(events)}
          retrying={events.isFetching}
        />
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
          <ul className="event-list" data-testid="events-list" ref={more.list}>
            {items.map((e) => (
              <li key={e.id} data-testid="event-row" data-type={e.type}>
                <button type="button" className="event-open" aria-haspopup="dialog" onClick={() => setOpen(e)}>
                  <span className="event-title">{eventTitle(e.type)}</span>
                  <span className="event-time muted small">{formatUtc(e.created_at)}</span>
                  <span className="event-summary small">{eventSummary(e, keys)}</span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {events.hasNextPage ? (
          <BusyButton
            type="button"
            className="btn btn-ghost"
            busy={events.isFetchingNextPage}
            busyLabel="Loading…"
            onClick={() => more.loadMore(() => events.fetchNextPage())}
          >
            Load more
          </BusyButton>
        ) : null}
      </section>
      {open ? <EventDrawer event={open} keys={keys} onClose={() => setOpen(null)} /> : null}
    </>
  );
}
