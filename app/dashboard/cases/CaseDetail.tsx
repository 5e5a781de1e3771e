"use client";
// One opened case of the review queue, summary first: the main reasons the assessment was flagged and the verdict
// (fraud or legitimate, with a note, optionally adding one of the case's values to a list), or who resolved it and
// when; then the details on demand: every signal and the account's facts, its assessments up to now, linked
// accounts and related cases (links to them). Keys while the case itself has focus: F fraud, L legitimate, J/K next
// and previous. They are read on the case, not the window, and never while focus is on a link, button or field, so a
// stray key elsewhere (or Enter and a letter on a control) cannot label an assessment (WCAG 2.1.4); the case takes
// focus when it opens.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, type KeyboardEvent } from "react";
import { Facts } from "../_components/answers/parts";
import { ReadFailed } from "../_components/ErrorNote";
import { formatUtcSeconds, timeAgo } from "../_components/format";
import { signalName } from "../_components/signal-names";
import { useTRPC } from "../_components/trpc";
import { AssessmentWords, LinkedAccounts } from "../users/LinkedAccounts";
import { accountHref } from "../users/AccountKind";
import { age } from "./age";
import { accountFactRows } from "./case-facts";
import { CaseVerdictForm, useVerdict, type Resolution } from "./CaseVerdict";
import { resolutionSentence, useResolvedBy } from "./resolved-by";

const SHARE_LABEL = { account: "account", ip: "IP address", device: "device" } as const;
/** How many reasons the summary names; the rest are in the details. */
const MAIN_REASONS = 3;

/** Where a key press belongs to the control it was pressed on, not to the case. */
const CONTROLS = "a[href], button, input, select, textarea, summary, [contenteditable], [role=button], [role=link]";

/** A case's address in the queue: the page opens it (on the tab of its status) wherever it is in the queue. */
export const caseHref = (c: { id: string; status: string }) =>
  `/dashboard/cases?status=${c.status === "resolved" ? "resolved" : "open"}&case=${encodeURIComponent(c.id)}`;

const signalWords = (code: string) => signalName(code) ?? code.replace(/_/g, " ");

export function CaseDetail({
  id,
  label,
  onResolved,
  onMove,
}: {
  id: string;
  /** The case's name for assistive technology, e.g. "Case of mallory". */
  label: string;
  onResolved: (resolved: { resolution: Resolution; added: string | null }) => void;
  onMove: (step: number) => void;
}) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.cases.get.queryOptions({ id }));
  const d = detail.data;
  const open = d?.status === "open";
  const v = useVerdict(id, d, onResolved);
  const resolvedBy = useResolvedBy(d?.status === "resolved");

  // The case takes focus when it opens (by Open, J/K or after the previous verdict), without scrolling: the queue
  // brings it into view when it moved there by itself.
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => root.current?.focus({ preventScroll: true }), []);

  // F fraud, L legitimate, J/K next and previous: only on the case itself or its text, never on a control.
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const t = e.target as HTMLElement;
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || (t !== e.currentTarget && t.closest(CONTROLS))) return;
    const k = e.key.toLowerCase();
    if (open && !v.resolve.isPending && (k === "f" || k === "l")) v.verdict(k === "f" ? "fraud" : "legitimate");
    else if (k === "j") onMove(1);
    else if (k === "k") onMove(-1);
    else return;
    e.preventDefault();
  };

  const accountFacts = accountFactRows(d?.assessment?.facts ?? {});
  const signals = d?.assessment?.signals ?? [];
  const reasons = signals.filter((s) => s.weight > 0).sort((a, b) => b.weight - a.weight);
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
      <ReadFailed what="The case" query={detail} />
      {detail.isPending ? (
        <p className="muted" role="status">
          Loading the case…
        </p>
      ) : null}
      {d ? (
        <>
          <div className="case-summary" data-testid="case-summary">
            <h3>Why it is here</h3>
            {d.assessment ? (
              <p className="small">
                A {d.assessment.event} assessment, {d.assessment.risk_level} risk, decided {d.decision} with a score of{" "}
                {d.score}, {formatUtcSeconds(d.assessment.created_at)} ({timeAgo(d.assessment.created_at)}).
              </p>
            ) : (
              <p className="muted small">The assessment is past the retention period; only the case remains.</p>
            )}
            {reasons.length ? (
              <ul className="case-reasons" data-testid="case-reasons">
                {reasons.slice(0, MAIN_REASONS).map((s) => (
                  <li key={s.code}>
                    {signalWords(s.code)} <strong>+{s.weight}</strong>
                  </li>
                ))}
                {reasons.length > MAIN_REASONS ? (
                  <li className="muted">and {reasons.length - MAIN_REASONS} more, listed in the details below</li>
                ) : null}
              </ul>
            ) : null}
            {d.rule ? (
              <p className="small" data-testid="case-rule">
                One of your <Link href="/dashboard/rules">rules</Link> decided the outcome.
              </p>
            ) : d.assessment && !reasons.length ? (
              <p className="muted small">No signal raised the score.</p>
            ) : null}
          </div>
          {open ? (
            <CaseVerdictForm v={v} />
          ) : (
            <p className="case-resolution" data-testid="case-resolution">
              <strong>{resolutionSentence(d, resolvedBy(d.resolved_by))}</strong>
              {d.note ? `: ${d.note}` : "."}
            </p>
          )}
          <div>
            <h3>What the assessment found</h3>
            {d.assessment ? (
              <>
                <p className="small muted">
                  Request <code>{d.request_id}</code>
                </p>
                {signals.length ? (
                  <ul className="small" data-testid="case-signals">
                    {signals.map((s) => (
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
            {d.user_id || d.email ? (
              <p className="small">
                {/* Without a user id the account is its email address's, which the account page opens as that kind
                    (?key=email): the same address may also have been sent as a user id, another account. */}
                <Link
                  href={d.user_id ? accountHref(d.user_id) : accountHref(d.email!, "email")}
                  data-testid="case-user-link"
                >
                  Open the account {d.user_id ?? d.email}
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
                    <Link href={caseHref(r)} data-testid="case-related-link">
                      {r.user_id ?? r.email ?? "no account given"}
                    </Link>{" "}
                    · {r.decision}, score {r.score}, {r.status}
                    {r.resolution ? ` (${r.resolution})` : ""} · opened {age(r.age_minutes)} ago · same{" "}
                    {r.shares.map((x) => SHARE_LABEL[x]).join(" and ")}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
