"use client";
// One account as this workspace's assessments know it: its baseline, its identifiers (canonical mailboxes, phone
// numbers with what the numbering plans say, devices, cards), the accounts linked to it and by what, and its
// assessments with their payments, newest first (more by cursor). An address that names two accounts (sent as a
// user id, and the mailbox of assessments sent without one) says which one is shown and links to the other.
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Country, Facts } from "../_components/answers/parts";
import { errorCode, ReadFailed, retryRead } from "../_components/ErrorNote";
import { formatUtcSeconds, timeAgo } from "../_components/format";
import { PHONE_TYPE_WORDS } from "../_components/phone-words";
import { useTRPC } from "../_components/trpc";
import { AccountKind, type AccountKey } from "./AccountKind";
import { AssessmentWords, LinkedAccounts, paymentWords } from "./LinkedAccounts";
import { UserSearch } from "./UserSearch";
import "./users.css";
import { BusyButton } from "../_components/BusyButton";
import { useFocusNewRows } from "../_components/useFocusNewRows";
import { useFocusOnArrival } from "../_components/useFocusOnArrival";

const KIND_TITLES = { email: "Canonical email", phone: "Phone", device: "Device", card: "Card" } as const;

export function UserView({ userId, kind }: { userId: string; kind?: AccountKey }) {
  const trpc = useTRPC();
  const q = useInfiniteQuery(
    trpc.users.get.infiniteQueryOptions(
      { user_id: userId, limit: 20, ...(kind ? { key: kind } : {}) },
      { getNextPageParam: (p) => p.assessments.next_cursor ?? undefined },
    ),
  );
  const first = q.data?.pages[0];
  const items = q.data?.pages.flatMap((p) => p.assessments.items) ?? [];
  const payments = items.filter((i) => i.payment);
  // "Older assessments" by keyboard: once they are in, the focus goes to the first of them (the button may be gone:
  // no more to load), not to the page's top.
  const more = useFocusNewRows<HTMLUListElement>(items.length);
  // An account opened (from the search, a linked account's link, the trail): the focus goes to its heading, not the
  // page's top, where the pressed Open button or link was removed with the page it was on. Not on a load of the page
  // by the browser (a reload, a typed address), nor when its data is fetched again.
  const heading = useFocusOnArrival<HTMLHeadingElement>(`${kind ?? ""}:${userId}`);
  const notFound = errorCode(q.error) === "NOT_FOUND";
  // An id no account can have (blank, or longer than /assess takes): said in words, with the search, not the check's.
  const notAnId = errorCode(q.error) === "INVALID_REQUEST";
  return (
    <div className="user-view" data-testid="user-view">
      <p className="small">
        <Link href="/dashboard/users">Accounts</Link> / <strong>{userId}</strong>
      </p>
      <h1 ref={heading} tabIndex={-1}>
        Account {userId}
      </h1>
      {first ? <AccountKind userId={userId} shown={first.key} other={first.other_key} /> : null}
      {q.isPending ? (
        <p className="muted" role="status">
          Loading the account…
        </p>
      ) : null}
      {notFound ? (
        <div className="card" data-testid="user-empty">
          <p>
            {kind === "email" ? (
              <>
                This workspace has no account known by the email address <strong>{userId}</strong>
              </>
            ) : (
              <>
                This workspace has no assessment of the user id <strong>{userId}</strong>
                {kind !== "user_id" && userId.includes("@") ? ", nor of an account known by that email address" : ""}
              </>
            )}
            . An account appears here once an assessment names it by its user id (or, sent without one, by its email
            address).
          </p>
          <UserSearch initial={userId} />
        </div>
      ) : notAnId ? (
        <div className="card" data-testid="user-empty">
          <p>
            No account can have this user id: it is blank or longer than the 256 characters <code>/assess</code> takes.
            Search for an account by the <code>user_id</code> you sent:
          </p>
          <UserSearch />
        </div>
      ) : (
        <ReadFailed
          what={q.isFetchNextPageError ? "The older assessments" : "The account"}
          error={q.error}
          onRetry={retryRead(q)}
          retrying={q.isFetching}
        />
      )}
      {first ? (
        <div className="user-grid">
          <section className="card">
            <h2>Usual behaviour</h2>
            {/* The baseline /assess compares a request with is read from the account's succeeded assessments only. */}
            <p className="muted small" data-testid="baseline-basis">
              From its succeeded assessments of the last 90 days; failed logins and signups are counted only on their
              own line.
            </p>
            <Facts
              rows={[
                [
                  "First seen",
                  first.baseline.first_seen_at ? formatUtcSeconds(first.baseline.first_seen_at) : "not in 90 days",
                ],
                [
                  "Last seen",
                  first.baseline.last_seen_at ? formatUtcSeconds(first.baseline.last_seen_at) : "not in 90 days",
                ],
                ["Succeeded assessments, 30 days", String(first.baseline.assessments_30d)],
                ["Failed attempts, 30 days", String(first.baseline.failed_30d)],
                [
                  "Countries, 30 days",
                  first.baseline.countries_30d.length ? (
                    <span>
                      {first.baseline.countries_30d.map((c, i) => (
                        <span key={c}>
                          {i ? ", " : ""}
                          <Country code={c} />
                        </span>
                      ))}
                    </span>
                  ) : (
                    "none known"
                  ),
                ],
                ["Devices, 30 days", String(first.baseline.devices_30d)],
                ["IP addresses, 30 days", String(first.baseline.ips_30d)],
              ]}
            />
          </section>
          <section className="card">
            <h2>Identifiers, last 30 days</h2>
            {first.identifiers.length === 0 ? (
              <p className="muted small">No device, email, phone number or card was sent with its assessments.</p>
            ) : (
              <Facts
                rows={first.identifiers.map((i) => [
                  KIND_TITLES[i.kind],
                  <span key={`${i.kind}:${i.value}`} data-testid={`identifier-${i.kind}`}>
                    <code>{i.value}</code>
                    {i.phone
                      ? i.phone.valid
                        ? ` · ${PHONE_TYPE_WORDS[i.phone.type ?? "unknown"] ?? i.phone.type}${i.phone.country ? ` · ` : ""}`
                        : " · not a valid number"
                      : null}
                    {i.phone?.valid && i.phone.country ? <Country code={i.phone.country} /> : null}
                    <span className="muted"> · {timeAgo(i.last_seen_at)}</span>
                  </span>,
                ])}
              />
            )}
          </section>
          <section className="card">
            <h2>Linked accounts</h2>
            <p className="muted small">Other accounts that used one of these identifiers in the last 30 days.</p>
            <LinkedAccounts linked={first.linked_accounts} />
          </section>
          <section className="card">
            <h2>Payments</h2>
            {payments.length === 0 ? (
              <p className="muted small">No payment among the assessments shown.</p>
            ) : (
              <ul className="small" data-testid="user-payments">
                {payments.map((p) => (
                  <li key={p.request_id}>
                    {formatUtcSeconds(p.created_at)}: {paymentWords(p.payment!)}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="card user-wide">
            <h2>Assessments</h2>
            <ul className="small" data-testid="user-assessments" ref={more.list}>
              {items.map((h) => (
                <li key={h.request_id} tabIndex={-1}>
                  <time dateTime={h.created_at}>{formatUtcSeconds(h.created_at)}</time>:{" "}
                  <AssessmentWords h={h} unknownIp="an unknown address" />
                </li>
              ))}
            </ul>
            {q.hasNextPage ? (
              <BusyButton
                type="button"
                className="btn"
                busy={q.isFetchingNextPage}
                busyLabel="Loading…"
                onClick={() => more.loadMore(() => q.fetchNextPage())}
              >
                Older assessments
              </BusyButton>
            ) : null}
          </section>
        </div>
      ) : null}
    </div>
  );
}
