"use client";
// One opened case of the review queue: what the assessment found, the account's facts and recent history, related
// cases, and the verdict (fraud or legitimate, with a note) that labels the assessment and may add one of the case's
// values to a list. Keys while the case itself has focus: F fraud, L legitimate, J/K next and previous. They are read
// on the case, not the window, and never while focus is on a link, button or field, so a stray key elsewhere (or Enter
// and a letter on a control) cannot label an assessment (WCAG 2.1.4); the case takes focus when it opens.
import { useMutation, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { Country, Facts } from "../_components/answers/parts";
import { ErrorNote } from "../_components/ErrorNote";
import { formatUtc, formatUtcSeconds, timeAgo } from "../_components/format";
import { signalName } from "../_components/signal-names";
import { useTRPC } from "../_components/trpc";
import { AssessmentWords, LinkedAccounts } from "../users/LinkedAccounts";
import { age } from "./age";

type Resolution = "fraud" | "legitimate";
type ValueSource = "user" | "email" | "device" | "ip";

/** The account's facts a reviewer reads, in words, in this order; the rules see them by these names. */
const ACCOUNT_FACTS: [string, string][] = [
  ["user.seen_before", "Seen before"],
  ["user.first_seen_days", "First seen, days ago"],
  ["user.assessments_30d", "Earlier succeeded assessments, last 30 days"],
  ["user.new_country", "New country"],
  ["user.new_asn", "New network"],
  ["user.new_device", "New device"],
  ["user.countries_30d", "Countries in 30 days"],
  ["user.devices_30d", "Devices in 30 days"],
  ["user.impossible_travel", "Impossible travel"],
  ["user.travel_kmh", "Travel speed, km/h"],
  ["user.failed_logins_1h", "Failed attempts, last hour"],
  ["user.success_after_failures", "Succeeded after failures"],
  ["ip.failed_logins_1h", "Failed attempts from this address, last hour"],
  ["ip.failed_users_1h", "Accounts failing from this address, last hour"],
  ["device.failed_users_1h", "Accounts failing from this device, last hour"],
  ["email.normalized", "Canonical email (every spelling of the inbox)"],
  ["email.subaddressed", "Email has a +tag"],
  ["user.linked_accounts_30d", "Other accounts linked, last 30 days"],
  ["device.accounts_30d", "Accounts on this device, last 30 days"],
  ["email.accounts_30d", "Accounts with this mailbox, last 30 days"],
  ["phone.accounts_30d", "Accounts with this phone number, last 30 days"],
  ["phone.valid", "Phone number valid"],
  ["phone.type", "Phone line type"],
  ["phone.country_matches_ip", "Phone country matches the address"],
  ["device.cards_1h", "Cards from this device, last hour"],
  ["device.declines_1h", "Declines from this device, last hour"],
  ["ip.cards_1h", "Cards from this address, last hour"],
  ["card.declines_24h", "Declines of this card, last 24 hours"],
  ["payment.small_amount", "Small amount"],
];
/** A fact as words: an enum's underscores read as spaces ("premium rate"); an address is shown as it is. */
const factValue = (v: unknown, key: string): string =>
  typeof v === "boolean"
    ? v
      ? "yes"
      : "no"
    : typeof v === "number"
      ? Math.round(v).toLocaleString("en-US")
      : typeof v === "string"
        ? key === "email.normalized"
          ? v
          : v.replace(/_/g, " ")
        : "";

/** Which list kinds take which value of a case. */
const KINDS_FOR: Record<ValueSource, string[]> = {
  user: ["user"],
  email: ["email", "email_domain"],
  device: ["device"],
  ip: ["ip"],
};
const SOURCE_LABEL: Record<ValueSource, string> = {
  user: "user id",
  email: "email",
  device: "device",
  ip: "IP address",
};

const SHARE_LABEL = { account: "account", ip: "IP address", device: "device" } as const;
const short = (v: string) => (v.length > 32 ? `${v.slice(0, 31)}…` : v);

/** Where a key press belongs to the control it was pressed on, not to the case. */
const CONTROLS = "a[href], button, input, select, textarea, summary, [contenteditable], [role=button], [role=link]";

export function CaseDetail({
  id,
  label,
  open,
  onResolved,
  onMove,
}: {
  id: string;
  /** The case's name for assistive technology, e.g. "Case of mallory". */
  label: string;
  open: boolean;
  /** `added`: what went into a list with the verdict, in words ("its IP address 10.0.0.8 to the list bad_ips"). */
  onResolved: (resolved: { resolution: Resolution; added: string | null }) => void;
  onMove: (step: number) => void;
}) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.cases.get.queryOptions({ id }));
  const lists = useQuery(trpc.lists.list.queryOptions({ limit: 200 }));
  const [note, setNote] = useState("");
  const [listId, setListId] = useState("");
  const [source, setSource] = useState<ValueSource>("user");
  const d = detail.data;
  // Only the values this case has can go into a list; the first of them until another is chosen.
  const values: Record<ValueSource, string | null> = {
    user: d?.user_id ?? null,
    email: d?.email ?? null,
    device: d?.device_id ?? null,
    ip: d?.ip ?? null,
  };
  const sources = (Object.keys(SOURCE_LABEL) as ValueSource[]).filter((s) => values[s]);
  const chosen: ValueSource = sources.includes(source) ? source : (sources[0] ?? source);
  const resolve = useMutation(
    trpc.cases.resolve.mutationOptions({
      onSuccess: (c, input) =>
        onResolved({
          resolution: c.resolution ?? input.resolution,
          added: input.add_to_list
            ? `its ${SOURCE_LABEL[input.add_to_list.value]} ${short(values[input.add_to_list.value] ?? "")} to the list ${
                lists.data?.items.find((l) => l.id === input.add_to_list?.list_id)?.name ?? "chosen"
              }`
            : null,
        }),
    }),
  );

  const verdict = (resolution: Resolution) =>
    resolve.mutate({
      id,
      resolution,
      ...(note.trim() ? { note: note.trim() } : {}),
      ...(listId && values[chosen] ? { add_to_list: { list_id: listId, value: chosen } } : {}),
    });

  // The case takes focus when it opens (by Open, J/K or after the previous verdict), without scrolling: the queue
  // brings it into view when it moved there by itself.
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => root.current?.focus({ preventScroll: true }), []);

  // F fraud, L legitimate, J/K next and previous: only on the case itself or its text, never on a control.
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const t = e.target as HTMLElement;
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || (t !== e.currentTarget && t.closest(CONTROLS))) return;
    const k = e.key.toLowerCase();
    if (open && !resolve.isPending && (k === "f" || k === "l")) verdict(k === "f" ? "fraud" : "legitimate");
    else if (k === "j") onMove(1);
    else if (k === "k") onMove(-1);
    else return;
    e.preventDefault();
  };

  const listChoices = (lists.data?.items ?? []).filter((l) => KINDS_FOR[chosen].includes(l.kind));
  const facts = d?.assessment?.facts ?? {};
  const accountFacts: [string, string][] = ACCOUNT_FACTS.filter(([k]) => facts[k] !== undefined).map(([k, label]) => [
    label,
    factValue(facts[k], k),
  ]);
  return (
    <div
      className="case-detail"
      data-testid="case-detail"
      ref={root}
      tabIndex={-1}
      role="region"
      aria-label={label}
      onKeyDown={onKey}
    >
      <ErrorNote error={detail.error} />
      {detail.isPending ? (
        <p className="muted" role="status">
          Loading the case…
        </p>
      ) : null}
      {d ? (
        <>
          <div>
            <h3>What the assessment found</h3>
            {d.assessment ? (
              <>
                <p className="small">
                  {d.assessment.event} · {d.assessment.risk_level} risk · {formatUtcSeconds(d.assessment.created_at)} ·
                  request <code>{d.request_id}</code>
                </p>
                {d.assessment.signals.length ? (
                  <ul className="small" data-testid="case-signals">
                    {d.assessment.signals.map((s) => (
                      <li key={s.code}>
                        {signalName(s.code) ? `${signalName(s.code)} ` : null}
                        <code className="muted">{s.code}</code>{" "}
                        <strong>{s.weight > 0 ? `+${s.weight}` : s.weight}</strong>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="muted small">No signal raised the score: a rule decided.</p>
                )}
                {accountFacts.length ? (
                  <div className="small" data-testid="case-account-facts">
                    <h4 className="case-subhead" data-testid="case-facts-when">
                      The account at the time of this assessment ({formatUtcSeconds(d.assessment.created_at)})
                    </h4>
                    <Facts rows={accountFacts} />
                  </div>
                ) : null}
              </>
            ) : (
              <p className="muted small">The assessment is past the retention period; only the case remains.</p>
            )}
          </div>
          <div>
            <h3>The account&apos;s assessments up to now</h3>
            {d.history.length === 0 ? (
              <p className="muted small">No account was given with this assessment.</p>
            ) : (
              <>
                <p className="muted small">
                  Newest first, including those made after this case was opened; the facts beside it are as they stood
                  when this assessment ran.
                </p>
                <ul className="small case-history" data-testid="case-history">
                  {d.history.map((h) => {
                    const own = h.request_id === d.request_id;
                    const after = d.assessment !== null && !own && h.created_at > d.assessment.created_at;
                    return (
                      <li
                        key={h.request_id}
                        className={own ? "case-history-own" : undefined}
                        data-testid="case-history-item"
                        data-when={own ? "this" : after ? "after" : "before"}
                      >
                        {own ? (
                          <span className="badge badge-active" data-testid="case-history-this">
                            this case
                          </span>
                        ) : after ? (
                          <span className="badge badge-pending">after this case</span>
                        ) : null}{" "}
                        <time dateTime={h.created_at} title={formatUtcSeconds(h.created_at)}>
                          {formatUtcSeconds(h.created_at)}
                        </time>{" "}
                        <span className="muted">({timeAgo(h.created_at)})</span>:{" "}
                        <AssessmentWords h={h} unknownIp="unknown IP" />
                      </li>
                    );
                  })}
                </ul>
              </>
            )}
          </div>
          <div data-testid="case-linked">
            <h3>Linked accounts</h3>
            {d.user_id ? (
              <p className="small">
                <Link href={`/dashboard/users/${encodeURIComponent(d.user_id)}`} data-testid="case-user-link">
                  Open the account {d.user_id}
                </Link>{" "}
                for its identifiers, payments and every assessment.
              </p>
            ) : null}
            {d.user_id || d.email ? (
              <LinkedAccounts linked={d.linked_accounts} />
            ) : (
              <p className="muted small">No account was given with this assessment.</p>
            )}
          </div>
          {d.related.length ? (
            <div>
              <h3>Related cases</h3>
              <ul className="small" data-testid="case-related">
                {d.related.map((r) => (
                  <li key={r.id}>
                    <strong>{r.user_id ?? r.email ?? "no account given"}</strong> · {r.decision}, score {r.score},{" "}
                    {r.status}
                    {r.resolution ? ` (${r.resolution})` : ""} · opened {age(r.age_minutes)} ago · same{" "}
                    {r.shares.map((x) => SHARE_LABEL[x]).join(" and ")}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {open ? (
            <form className="case-resolve" onSubmit={(e) => e.preventDefault()}>
              <h3>Verdict</h3>
              <label>
                Note (optional)
                <textarea value={note} onChange={(e) => setNote(e.target.value)} rows={2} maxLength={2000} />
              </label>
              {sources.length ? (
                <div className="row">
                  <label>
                    Also add its
                    <select
                      value={chosen}
                      onChange={(e) => {
                        setSource(e.target.value as ValueSource);
                        setListId(""); // a list of the old value's kind would no longer be shown
                      }}
                    >
                      {sources.map((s) => (
                        <option key={s} value={s}>
                          {SOURCE_LABEL[s]} ({short(values[s]!)})
                        </option>
                      ))}
                    </select>
                  </label>
                  <label>
                    to the list
                    <select value={listId} onChange={(e) => setListId(e.target.value)} data-testid="case-list">
                      <option value="">(no list)</option>
                      {listChoices.map((l) => (
                        <option key={l.id} value={l.id}>
                          {l.name}
                        </option>
                      ))}
                    </select>
                  </label>
                </div>
              ) : null}
              <div className="row">
                <button
                  type="button"
                  className="btn btn-danger"
                  disabled={resolve.isPending}
                  onClick={() => verdict("fraud")}
                  data-testid="case-fraud"
                >
                  Fraud <kbd>F</kbd>
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={resolve.isPending}
                  onClick={() => verdict("legitimate")}
                  data-testid="case-legitimate"
                >
                  Legitimate <kbd>L</kbd>
                </button>
              </div>
              <p className="muted small">
                Keys, while the case has focus (it takes it when it opens; not on a button, link or field): <kbd>F</kbd>{" "}
                fraud, <kbd>L</kbd> legitimate, <kbd>J</kbd>/<kbd>K</kbd> next and previous case.
              </p>
              <ErrorNote error={resolve.error} />
            </form>
          ) : (
            <p className="small" data-testid="case-resolution">
              Resolved {d.resolution} {d.resolved_at ? formatUtc(d.resolved_at) : ""}
              {d.note ? `: ${d.note}` : "."}
            </p>
          )}
        </>
      ) : null}
    </div>
  );
}
