"use client";
// The workspace's lookup history (GET /v1/lookups/history through the dashboard's tRPC endpoint): safe summaries of recent
// lookups with when each was made and when it expires, filtered by kind of lookup and time, paged.
import { useInfiniteQuery } from "@tanstack/react-query";
import { PlanGate } from "../_components/PlanGate";
import { useMemo, useState } from "react";
import { historyWindowsSentence } from "../../../server/api/contract-text";
import {
  customBounds,
  DateRangeFilter,
  presetSince,
  rangeProblem,
  type DateRange,
} from "../_components/DateRangeFilter";
import { endpointLabel } from "../_components/endpoint-names";
import { ReadFailed, retryRead } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { refundText } from "./refund-words";
import { useTRPC } from "../_components/trpc";
import "../events/events.css";
import { BusyButton } from "../_components/BusyButton";
import { useFocusNewRows } from "../_components/useFocusNewRows";

const FAMILIES = [
  { value: "", label: "All lookups" },
  { value: "ip", label: "IP (reputation, geolocation, RDAP)" },
  { value: "asn", label: "AS numbers" },
  { value: "domain", label: "Domains" },
  { value: "dns", label: "DNS" },
  { value: "email", label: "Email (check, security)" },
  { value: "host", label: "Hosts (TLS, status)" },
  { value: "online-check", label: "Online checks" },
  { value: "blocklists", label: "Blocklists" },
  { value: "cidr", label: "CIDR ranges" },
  { value: "vulnerabilities", label: "Vulnerabilities" },
] as const;

/** What the entry cost and how it ended, in words: "1 unit · answered", "4 units · failed (source unavailable)". */
function costText(units: number | null, status: number | null): string {
  const cost = units === null ? "cost not recorded" : `${units} unit${units === 1 ? "" : "s"}`;
  if (status === null) return cost;
  if (status === 202) return `${cost} · accepted, still running`;
  if (status < 300) return `${cost} · answered`;
  if (status === 404) return `${cost} · nothing found`;
  if (status === 503) return `${cost} · failed (source unavailable)`;
  return `${cost} · failed`;
}

function summaryText(summary: Record<string, unknown>): string {
  const refund = refundText(summary);
  const rest = Object.entries(summary)
    .filter(([k]) => k !== "refunded_units" && k !== "refund_reason")
    .filter(([, v]) => v !== null && v !== undefined && v !== "")
    .map(
      ([k, v]) =>
        `${k
          .replace(/([a-z])([A-Z])/g, "$1 $2")
          .replace(/_/g, " ")
          .toLowerCase()}: ${typeof v === "boolean" ? (v ? "yes" : "no") : typeof v === "object" ? JSON.stringify(v) : String(v)}`,
    )
    .join(" · ");
  return [rest, refund].filter(Boolean).join(" · ");
}

export function HistoryView() {
  const trpc = useTRPC();
  const [family, setFamily] = useState("");
  const [dates, setDates] = useState<DateRange>({ range: "30", from: "", to: "" });
  // `since` is fixed when the filter changes, so paging does not drift.
  const { since, until } = useMemo(() => {
    const b = dates.range === "custom" ? customBounds(dates.from, dates.to) : { since: presetSince(dates.range) };
    return { since: b.since?.toISOString(), until: b.until?.toISOString() };
  }, [dates]);
  const history = useInfiniteQuery(
    trpc.workspace.lookupHistory.infiniteQueryOptions(
      { limit: 50, endpoint: family || undefined, since, until },
      // Dates the filter marks as wrong are not asked for; it says why under them.
      { getNextPageParam: (p) => p.nextCursor ?? undefined, enabled: rangeProblem(dates) === null },
    ),
  );
  const first = history.data?.pages[0];
  const items = history.data?.pages.flatMap((p) => p.items) ?? [];
  const more = useFocusNewRows<HTMLUListElement>(items.length);
  const noHistory = first?.historyDays === 0;

  return (
    <>
      <h1>Lookup history</h1>
      <p className="muted small">
        A safe summary of each request that used lookup units (never the full answer), with what it cost and how it
        ended, failed lookups, saved reports and bulk job items included, kept for the plan&apos;s history window
        {first && first.historyDays > 0 ? ` (${first.historyDays} days)` : ""}. Each entry shows when it expires.
      </p>
      {noHistory ? (
        <PlanGate testId="history-none" sentence={historyWindowsSentence()} />
      ) : (
        <>
          <form className="card events-filters" aria-label="Filter the history" onSubmit={(e) => e.preventDefault()}>
            <label>
              Lookup
              <select value={family} onChange={(e) => setFamily(e.target.value)} data-testid="history-endpoint">
                {FAMILIES.map((f) => (
                  <option key={f.value} value={f.value}>
                    {f.label}
                  </option>
                ))}
              </select>
            </label>
            <DateRangeFilter value={dates} onChange={setDates} testIdPrefix="history" />
          </form>
          <section className="card" aria-busy={history.isFetching}>
            <ReadFailed
              what={history.isFetchNextPageError ? "The older lookups" : "The lookup history"}
              error={history.error}
              onRetry={retryRead(history)}
              retrying={history.isFetching}
            />
            {history.isLoading ? (
              <p className="muted" role="status">
                Loading the history…
              </p>
            ) : null}
            {history.data && items.length === 0 ? (
              <p className="muted" data-testid="history-empty">
                {family
                  ? "No lookup matches this filter."
                  : dates.range === "all"
                    ? "No lookups yet. Lookups made with an API key or in the console appear here."
                    : "No lookups in this period. Lookups made with an API key or in the console appear here."}
              </p>
            ) : null}
            {items.length > 0 ? (
              <ul className="event-list" data-testid="history-list" ref={more.list}>
                {items.map((h) => (
                  <li key={h.id} data-testid="history-row" data-endpoint={h.endpoint}>
                    <div className="event-open" style={{ cursor: "default" }}>
                      <span className="event-title">
                        <code>{h.target}</code>{" "}
                        <span className="muted small" title={h.endpoint}>
                          {endpointLabel(h.endpoint)}
                        </span>
                      </span>
                      <span className="event-time muted small">{formatUtc(h.created_at)}</span>
                      <span className="event-summary small" data-testid="history-cost">
                        {costText(h.units, h.status)}
                        {summaryText(h.summary) ? ` · ${summaryText(h.summary)}` : ""}
                      </span>
                      <span className="event-summary small">Expires {formatUtc(h.expires_at)}</span>
                    </div>
                  </li>
                ))}
              </ul>
            ) : null}
            {history.hasNextPage ? (
              <BusyButton
                type="button"
                className="btn"
                onClick={() => more.loadMore(() => history.fetchNextPage())}
                busy={history.isFetchingNextPage}
                busyLabel="Loading…"
              >
                Load more
              </BusyButton>
            ) : null}
          </section>
        </>
      )}
    </>
  );
}
