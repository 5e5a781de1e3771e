"use client";
// The delivery log of one webhook, newest first: status, attempts, the receiver's last answer, the next retry,
// and on demand the payload sent; a finished delivery can be sent again. Refreshes itself while any is pending.
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { ErrorNote, ReadFailed, retryRead } from "../../_components/ErrorNote";
import { formatUtc } from "../../_components/format";
import { useTRPC } from "../../_components/trpc";
import { BusyButton } from "../../_components/BusyButton";
import { useFocusNewRows } from "../../_components/useFocusNewRows";

type Delivery = { id: string; status: string; last_error: string | null; last_status: number | null };

/** The status in words, with why for the states a person has to act on. */
function statusNote(d: Delivery): string | null {
  if (d.status === "paused")
    return "Paused: this workspace's plan no longer includes webhooks. It resumes if webhooks return to the plan within about 28 hours.";
  if (d.status === "expired") return "Not sent: webhooks returned to the plan after the retry window.";
  if (d.status === "failed" || (d.status === "pending" && d.last_error)) {
    return d.last_status
      ? `The receiver answered ${d.last_status}.`
      : d.last_error
        ? `No answer: ${d.last_error}`
        : null;
  }
  return null;
}

export function DeliveryLog({ webhookId }: { webhookId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<string | null>(null);
  const log = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(
      { id: webhookId, limit: 25 },
      {
        getNextPageParam: (p) => p.nextCursor ?? undefined,
        refetchInterval: (q) =>
          q.state.data?.pages.some((p) => p.items.some((d) => d.status === "pending" && d.attempts === 0))
            ? 1500
            : false,
      },
    ),
  );
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() }),
    }),
  );
  const items = log.data?.pages.flatMap((p) => p.items) ?? [];
  const more = useFocusNewRows<HTMLTableSectionElement>(items.length, '[data-testid="delivery-row"]');

  return (
    <section className="card">
      <div className="row-between">
        <h2>Delivery log</h2>
        <button type="button" className="btn btn-ghost" onClick={() => void log.refetch()}>
          Refresh
        </button>
      </div>
      <ReadFailed
        what={log.isFetchNextPageError ? "The older deliveries" : "The delivery log"}
        error={log.error}
        onRetry={retryRead(log)}
        retrying={log.isFetching}
      />
      <ErrorNote error={redeliver.error} />
      {log.isPending ? (
        <p className="muted" role="status">
          Loading deliveries…
        </p>
      ) : null}
      {log.data && items.length === 0 ? (
        <p className="muted" data-testid="deliveries-empty">
          Nothing sent yet. Use “Send test event” to check the receiver.
        </p>
      ) : null}
      {items.length > 0 ? (
        <div className="table-scroll">
          <table className="list cards" data-testid="deliveries-table">
            <thead>
              <tr>
                <th>Status</th>
                <th>Attempts</th>
                <th>Response</th>
                <th>Next retry</th>
                <th>Created</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody ref={more.list}>
              {items.map((d) => (
                <Fragment key={d.id}>
                  <tr data-testid="delivery-row" data-status={d.status}>
                    <td data-label="Status">
                      <span className={`badge badge-${d.status}`}>{d.status}</span>
                      {(d.payload as { test?: boolean } | null)?.test ? (
                        <span className="muted small"> test</span>
                      ) : null}
                    </td>
                    <td className="num" data-label="Attempts">
                      {d.attempts}
                    </td>
                    <td data-testid="delivery-response" data-label="Response">
                      {d.last_status ?? "—"}
                    </td>
                    <td data-label="Next retry">{d.next_attempt_at ? formatUtc(d.next_attempt_at) : "—"}</td>
                    <td data-label="Created">{formatUtc(d.created_at)}</td>
                    <td className="row cell-actions">
                      <button
                        type="button"
                        className="btn btn-ghost"
                        aria-expanded={open === d.id}
                        onClick={() => setOpen(open === d.id ? null : d.id)}
                      >
                        {open === d.id ? "Hide" : "Details"}
                      </button>
                      <BusyButton
                        type="button"
                        className="btn"
                        disabled={d.status === "pending"}
                        busy={redeliver.isPending}
                        onClick={() => redeliver.mutate({ id: webhookId, delivery_id: d.id })}
                      >
                        Redeliver
                      </BusyButton>
                    </td>
                  </tr>
                  {statusNote(d) ? (
                    <tr className="cards-note">
                      <td colSpan={6} className="small" data-testid="delivery-why">
                        {statusNote(d)}
                      </td>
                    </tr>
                  ) : null}
                  {open === d.id ? (
                    <tr className="cards-note">
                      <td colSpan={6}>
                        <p className="small muted">
                          Delivery <code>{d.id}</code> (the <code>webhook-id</code> header) · request{" "}
                          <code>{d.request_id}</code>
                          {d.delivered_at ? ` · delivered ${formatUtc(d.delivered_at)}` : ""}
                        </p>
                        <pre className="raw-json" data-testid="delivery-payload">
                          {JSON.stringify(d.payload, null, 2)}
                        </pre>
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {log.hasNextPage ? (
        <BusyButton
          type="button"
          className="btn btn-ghost"
          busy={log.isFetchingNextPage}
          onClick={() => more.loadMore(() => log.fetchNextPage())}
        >
          Load more
        </BusyButton>
      ) : null}
    </section>
  );
}
