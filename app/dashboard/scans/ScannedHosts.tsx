"use client";
// Every site the workspace has scanned, the most recently scanned first, with its latest grade; a site opens its
// history, and "Scan again" puts it in the form. Same data as GET /v1/scans/hosts, 20 sites a page.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ReadFailed, retryRead } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { ScanHistory } from "./ScanHistory";
import { BusyButton } from "../_components/BusyButton";
import { useFocusNewRows } from "../_components/useFocusNewRows";

const VISIBILITY_TEXT: Record<string, string> = { private: "private", unlisted: "unlisted", public: "public" };

export function ScannedHosts({
  current,
  onScanAgain,
}: {
  current: string | null;
  onScanAgain: (host: string) => void;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState<string | null>(null);
  const hosts = useInfiniteQuery(
    trpc.scans.hosts.infiniteQueryOptions({ limit: 20 }, { getNextPageParam: (last) => last.next_cursor ?? undefined }),
  );
  const rows = hosts.data?.pages.flatMap((p) => p.hosts) ?? [];
  const more = useFocusNewRows<HTMLUListElement>(rows.length);
  return (
    <section className="card" aria-labelledby="scanned-hosts">
      <h2 id="scanned-hosts">Past scans</h2>
      <ReadFailed
        what={hosts.isFetchNextPageError ? "The next scans" : "Your scans"}
        error={hosts.error}
        onRetry={retryRead(hosts)}
        retrying={hosts.isFetching}
      />
      {hosts.isPending ? (
        <p className="muted" role="status">
          Loading your scans…
        </p>
      ) : null}
      {hosts.data && rows.length === 0 ? (
        <p className="muted" data-testid="scanned-hosts-empty">
          No scans yet. Scan a site above and it is listed here with its grade.
        </p>
      ) : null}
      <ul className="scanned-hosts" data-testid="scanned-hosts" ref={more.list}>
        {rows.map((h) => (
          <li key={h.host} data-testid="scanned-host" data-host={h.host}>
            <div className="scanned-host-row">
              <span className={`grade grade-small grade-${h.latest.grade?.[0] ?? "none"}`}>
                {h.latest.grade ?? "–"}
              </span>
              <div className="scanned-host-text">
                <strong>{h.host}</strong>
                <span className="muted small">
                  {h.latest.status === "done"
                    ? `${h.latest.score} points`
                    : h.latest.status === "running"
                      ? "running"
                      : "could not be scanned"}{" "}
                  · {formatUtc(h.scanned_at)} · {VISIBILITY_TEXT[h.latest.visibility]} · {h.scans} scan
                  {h.scans === 1 ? "" : "s"}
                </span>
              </div>
              <div className="row scanned-host-actions">
                <button
                  type="button"
                  className="btn"
                  aria-expanded={open === h.host}
                  onClick={() => setOpen(open === h.host ? null : h.host)}
                  data-testid="scanned-host-history"
                >
                  {open === h.host ? "Hide history" : "History"}
                </button>
                <button type="button" className="btn" onClick={() => onScanAgain(h.host)}>
                  Scan again
                </button>
              </div>
            </div>
            {open === h.host && h.host !== current ? <ScanHistory host={h.host} /> : null}
            {open === h.host && h.host === current ? (
              <p className="muted small">Its history is shown with the result above.</p>
            ) : null}
          </li>
        ))}
      </ul>
      {hosts.hasNextPage ? (
        <BusyButton
          type="button"
          className="btn"
          onClick={() => more.loadMore(() => hosts.fetchNextPage())}
          busy={hosts.isFetchingNextPage}
          busyLabel="Loading…"
        >
          Show more sites
        </BusyButton>
      ) : null}
    </section>
  );
}
