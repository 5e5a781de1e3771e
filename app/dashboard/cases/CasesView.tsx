"use client";
// The review queue: the open cases oldest first (resolved ones on the other tab), one opened at a time with what the
// assessment found, the account's recent history and related cases, and a verdict (fraud or legitimate) that labels
// the assessment and may add the account, email, device or address to a list. Keys: F fraud, L legitimate, J/K next
// and previous. Same procedures as /v1/cases, PAGE_SIZE cases a page: "Load more" (or J on the last case) follows the
// API's cursor, so no case is out of reach however long the queue is. A link to one case (?case=…&status=…, as related
// cases link) opens it on its tab, in its place in the queue or, when it is not among the cases shown, above them.
import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../../../server/api/root";
import { PLAN_SLUGS, PLANS } from "../../../server/plans/catalog";
import { ReadFailed, retryRead } from "../_components/ErrorNote";
import { isPlanRefusal, PlanGate } from "../_components/PlanGate";
import { useTRPC } from "../_components/trpc";
import { age } from "./age";
import { CaseDetail } from "./CaseDetail";
import { CaseHead, who } from "./CaseHead";
import { useResolvedBy } from "./resolved-by";
import "./cases.css";
import { BusyButton } from "../_components/BusyButton";
import { useFocusNewRows } from "../_components/useFocusNewRows";

type CaseRow = inferRouterOutputs<AppRouter>["cases"]["list"]["items"][number];

const FULL_PLANS = PLAN_SLUGS.filter((s) => PLANS[s].capabilities.includes("full")).map((s) => PLANS[s].name);

const PAGE_SIZE = 50;

export function CasesView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const params = useSearchParams();
  const linked = params.get("case");
  const linkedStatus = params.get("status") === "resolved" ? "resolved" : "open";
  const [status, setStatus] = useState<"open" | "resolved">(linked ? linkedStatus : "open");
  const [selected, setSelected] = useState<string | null>(linked);
  // What the last verdict did, kept here (not in the case's detail) so it stays on screen when the queue moves on: at
  // the top of the next case's card, which is scrolled into view with it.
  const [saved, setSaved] = useState<string | null>(null);
  // The case the queue moved to by itself (a verdict, J or K), to bring into view once it is shown.
  const reveal = useRef<string | null>(null);
  const moveTo = (id: string | null) => {
    reveal.current = id;
    setSelected(id);
  };
  // A link to a case followed while the queue is shown (a related case): its tab, the case opened and in view.
  useEffect(() => {
    if (!linked) return;
    setStatus(linkedStatus);
    setSaved(null);
    moveTo(linked);
  }, [linked, linkedStatus]);
  useEffect(() => {
    if (!selected || reveal.current !== selected) return;
    reveal.current = null;
    document.querySelector(`[data-testid=case-card][data-case-id="${CSS.escape(selected)}"]`)?.scrollIntoView({
      block: "start",
    });
  }, [selected]);
  const cases = useInfiniteQuery(
    trpc.cases.list.infiniteQueryOptions(
      { status, limit: PAGE_SIZE },
      { getNextPageParam: (last) => last.next_cursor ?? undefined },
    ),
  );
  const items = cases.data?.pages.flatMap((p) => p.items) ?? [];
  const more = useFocusNewRows<HTMLUListElement>(items.length);
  const index = items.findIndex((c) => c.id === selected);
  const resolvedBy = useResolvedBy(status === "resolved" || (selected !== null && index === -1));
  // A linked case that is not among the cases shown (further down the queue, or on the other tab) opens above them.
  const outside = selected !== null && selected === linked && cases.data !== undefined && index === -1;
  // The next page's first case, for J on the last case shown.
  const openNextPage = async () => {
    const loaded = await cases.fetchNextPage();
    const pages = loaded.data?.pages ?? [];
    const first = pages[pages.length - 1]?.items[0];
    if (first && pages.length > (cases.data?.pages.length ?? 0)) moveTo(first.id);
  };

  if (isPlanRefusal(cases.error))
    return (
      <>
        <h1>Review queue</h1>
        <PlanGate
          sentence={`The review queue needs the ${FULL_PLANS.join(" or ")} plan. This workspace's plan does not include it, so nothing here can run yet.`}
        />
      </>
    );

  const savedNotice = (
    <p className="notice case-saved" role="status" data-testid="case-saved">
      {saved}
    </p>
  );
  const counts = cases.data?.pages[0]?.counts;
  const shown =
    status === "open" && counts && counts.open > items.length
      ? `Showing the oldest ${items.length.toLocaleString("en-US")} of ${counts.open.toLocaleString("en-US")} open cases.`
      : status === "resolved" && cases.hasNextPage
        ? `Showing the ${items.length.toLocaleString("en-US")} most recently resolved cases.`
        : null;
  return (
    <>
      <h1>Review queue</h1>
      <p data-testid="cases-summary">
        {counts === undefined
          ? ""
          : counts.open === 0
            ? "No open cases."
            : `${counts.open} open case${counts.open === 1 ? "" : "s"}; the oldest was opened ${age(counts.oldest_open_minutes ?? 0)} ago.`}
      </p>
      <p className="muted small">
        Every assessment whose decision is review or challenge opens a case. Your verdict labels the assessment, so rule
        backtests and learned weights learn from it.
      </p>
      <div className="segmented" role="radiogroup" aria-label="Cases to show">
        {(["open", "resolved"] as const).map((s) => (
          <label key={s} className={status === s ? "selected" : undefined}>
            <input
              type="radio"
              name="case-status"
              value={s}
              checked={status === s}
              onChange={() => {
                setStatus(s);
                setSelected(null);
                setSaved(null);
              }}
              data-testid={`cases-${s}`}
            />
            {s === "open" ? "Open" : "Resolved"}
          </label>
        ))}
      </div>
      <section className="card">
        {saved && !selected ? savedNotice : null}
        <ReadFailed
          what={cases.isFetchNextPageError ? "The next cases" : "The review queue"}
          error={cases.error}
          onRetry={retryRead(cases)}
          retrying={cases.isFetching}
        />
        {cases.isPending ? (
          <p className="muted" role="status">
            Loading cases…
          </p>
        ) : null}
        {cases.data && items.length === 0 ? (
          <p className="muted" data-testid="cases-empty">
            {status === "open"
              ? "Nothing to review. Cases appear here when an assessment is decided review or challenge."
              : "No resolved cases yet."}
          </p>
        ) : null}
        {outside ? <LinkedCase id={selected} onClose={() => setSelected(null)} /> : null}
        <ul className="case-cards" ref={more.list}>
          {items.map((c) => (
            <li
              key={c.id}
              className={`case-card${c.id === selected ? " selected" : ""}`}
              data-testid="case-card"
              data-case-id={c.id}
            >
              {saved && c.id === selected ? savedNotice : null}
              <CaseHead
                c={c}
                resolvedBy={resolvedBy(c.resolved_by)}
                action={
                  <button
                    type="button"
                    className="btn"
                    onClick={() => {
                      setSaved(null);
                      setSelected(c.id === selected ? null : c.id);
                    }}
                    aria-expanded={c.id === selected}
                    data-testid="case-open"
                  >
                    {c.id === selected ? "Close" : "Open"}
                  </button>
                }
              />
              {c.id === selected ? (
                <CaseDetail
                  id={c.id}
                  label={`Case of ${who(c)}`}
                  onResolved={({ resolution, added }) => {
                    setSaved(
                      `Case of ${who(c)} resolved as ${resolution}` +
                        (added ? `; added ${added}.` : ".") +
                        (items.length > 1 ? " Showing the next case." : ""),
                    );
                    const next = items[index + 1]?.id ?? items[index - 1]?.id ?? null;
                    moveTo(next);
                    void queryClient.invalidateQueries({ queryKey: trpc.cases.pathKey() });
                  }}
                  onMove={(step) => {
                    const to = items[index + step];
                    if (to) {
                      setSaved(null);
                      moveTo(to.id);
                    } else if (step > 0 && cases.hasNextPage && !cases.isFetchingNextPage) void openNextPage();
                  }}
                />
              ) : null}
            </li>
          ))}
        </ul>
        {shown ? (
          <p className="muted small" data-testid="cases-shown">
            {shown}
          </p>
        ) : null}
        {cases.hasNextPage ? (
          <BusyButton
            type="button"
            className="btn"
            onClick={() => more.loadMore(() => cases.fetchNextPage())}
            busy={cases.isFetchingNextPage}
            busyLabel="Loading…"
            data-testid="cases-more"
          >
            Load more
          </BusyButton>
        ) : null}
      </section>
    </>
  );
}

/** A linked case not among the cases shown: its own card above the queue, with its verdict if it is still open. */
function LinkedCase({ id, onClose }: { id: string; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const c = useQuery(trpc.cases.get.queryOptions({ id }));
  const resolvedBy = useResolvedBy(c.data?.status === "resolved");
  return (
    <div className="case-card selected case-linked-card" data-testid="case-card" data-case-id={id}>
      {c.data ? (
        <CaseHead
          c={c.data}
          resolvedBy={resolvedBy(c.data.resolved_by)}
          action={
            <button type="button" className="btn" onClick={onClose} aria-expanded data-testid="case-open">
              Close
            </button>
          }
        />
      ) : null}
      <CaseDetail
        id={id}
        label={c.data ? `Case of ${who(c.data)}` : "The linked case"}
        onResolved={() => void queryClient.invalidateQueries({ queryKey: trpc.cases.pathKey() })}
        onMove={() => undefined}
      />
    </div>
  );
}
