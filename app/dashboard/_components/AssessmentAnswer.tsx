"use client";
// An assessment shown as an answer: the score and verdict first, then why (each signal with its reason and
// sources), the rules that matched, the facts found about the IP and email, and the data behind them. Used by the
// assess page and by saved reports, so a saved assessment reopens with its whole explanation. Its outcome buttons
// label what the request turned out to be (the procedure of POST /v1/assess/{request_id}/outcome); labels measure
// the rules and score bands.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { AssessResult } from "../../../server/assessment/schemas";
import { IdentityFacts } from "./answers/IdentityFacts";
import { NETWORK_TEXT } from "./answers/IpCards";
import { Country, Facts } from "./answers/parts";
import { evidenceWords, sourceDate, sourceKind, sourceTitle } from "./answers/source-words";
import { forUsers } from "./answers/user-text";
import { Flag } from "./Flag";
import { formatUtc } from "./format";
import { OutcomeButtons } from "./OutcomeButtons";
import { RawJson, StructureTree } from "./ResultView";
import { ScoreGauge } from "./ScoreGauge";
import { useTRPC } from "./trpc";

const DECISION_TEXT: Record<string, string> = {
  allow: "Allow: let the event through.",
  review: "Review: let it through and have a person look at it.",
  challenge: "Challenge: ask for more proof (a CAPTCHA, a one-time code) before going on.",
  block: "Block: refuse the event.",
};

/** A saved report holds any JSON object; this recognises one that is an assessment result. */
export function asAssessment(value: unknown): AssessResult | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Partial<AssessResult>;
  return typeof v.score === "number" &&
    typeof v.risk_level === "string" &&
    Array.isArray(v.signals) &&
    Array.isArray(v.rules)
    ? (v as AssessResult)
    : null;
}

/**
 * The data feeds' descriptions by name (GET /sources, unmetered), to name an answer's sources as the Data sources page
 * does; empty until read, or when it cannot be, and the names are shown as they are.
 */
function useFeedTitles(): ReadonlyMap<string, string> {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.sources.list.queryOptions({}), staleTime: 10 * 60_000 });
  return new Map((q.data?.sources ?? []).map((s) => [s.name, s.description]));
}

export function AssessmentAnswer({ result }: { result: AssessResult }) {
  const feeds = useFeedTitles();
  return (
    <section className="answer" data-testid="assessment-answer">
      <div className="card answer-summary">
        <ScoreGauge score={result.score} level={result.risk_level} />
        <div>
          <p className="answer-headline">
            <span className={`badge risk-${result.risk_level}`} data-testid="risk-level">
              {result.risk_level} risk
            </span>{" "}
            <span className={`badge decision-${result.decision}`} data-testid="decision">
              {result.decision}
            </span>
          </p>
          <p>{DECISION_TEXT[result.decision]}</p>
          <p className="muted small">
            {result.decided_by === "rule"
              ? `Decided by the rule “${result.rules[0]?.name ?? ""}”.`
              : "Decided by the score."}{" "}
            {result.event} event, checked {formatUtc(result.checked_at)}, request <code>{result.request_id}</code>.
            {result.weights ? (
              <>
                {" "}
                Scored with{" "}
                <Link href="/dashboard/weights">{result.weights === "learned" ? "learned" : "default"} weights</Link>.
              </>
            ) : null}
          </p>
        </div>
      </div>

      <div className="card">
        <h2>Why</h2>
        {result.signals.length === 0 ? (
          <p className="muted" data-testid="no-signals">
            Nothing raised the score: no signal found a risk.
          </p>
        ) : (
          <ul className="signal-list" data-testid="signals">
            {result.signals.map((s) => (
              <li key={s.code} data-testid="signal" data-code={s.code}>
                <span className={`weight ${s.weight > 0 ? "weight-up" : "weight-down"}`}>
                  {s.weight > 0 ? `+${s.weight}` : s.weight}
                </span>
                <div>
                  <p className="signal-reason">{forUsers(s.reason)}</p>
                  <p className="muted small">
                    <code>{s.code}</code>
                    {s.evidence.length ? ` · from ${evidenceWords(s.evidence, feeds)}` : null}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="card">
        <h2>Matched rules</h2>
        {result.rules.length === 0 ? (
          <p className="muted small" data-testid="no-rules">
            No rule matched; the score decided.
          </p>
        ) : (
          <ol className="rule-list" data-testid="matched-rules">
            {result.rules.map((r, i) => (
              <li key={r.id}>
                {r.name} → <span className={`badge decision-${r.action}`}>{r.action}</span>
                {i === 0 ? <span className="muted small"> (first match: decides)</span> : null}
              </li>
            ))}
          </ol>
        )}
        {/* Reports saved before shadow mode existed have neither list. */}
        {(result.shadow_rules ?? []).length > 0 ? (
          <>
            <h3>Shadow rules that matched</h3>
            <ul className="rule-list" data-testid="shadow-rules">
              {result.shadow_rules.map((r) => (
                <li key={r.id}>
                  {r.name} → would {r.action} <span className="muted small">(shadow: did not change the decision)</span>
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {(result.rule_errors ?? []).length > 0 ? (
          <p className="muted small" data-testid="rule-errors">
            Skipped because they could not be evaluated:{" "}
            {result.rule_errors.map((r) => `${r.name} (${r.message})`).join("; ")}.
          </p>
        ) : null}
      </div>

      <OutcomeButtons requestId={result.request_id} />

      <div className="grid-2">
        <div className="card" data-testid="ip-facts">
          <h2>IP address</h2>
          <p>
            <code>{result.ip.address}</code> · <Country code={result.ip.country} /> ·{" "}
            {result.ip.asn ? `AS${result.ip.asn}` : "no ASN"} · network: {networkWords(result.ip.network_type)}
          </p>
          <p className="flags">
            <Flag label="Tor exit" value={result.ip.tor_exit} badWhen={true} />
            <Flag label="Hosting network" value={result.ip.hosting} badWhen={true} />
          </p>
        </div>
        <div className="card" data-testid="email-facts">
          <h2>Email</h2>
          {result.email ? (
            <>
              <p>
                <code>{result.email.address}</code> · mail server: {result.email.mx.replace(/_/g, " ")}
              </p>
              {result.email.normalized ? (
                <p className="small" data-testid="email-mailbox">
                  Mailbox (every spelling of it counts as one): <code>{result.email.normalized}</code>
                  {result.email.subaddressed
                    ? " · the address carries a tag the provider delivers to that mailbox"
                    : ""}
                </p>
              ) : null}
              <p className="flags">
                <Flag label="Disposable" value={result.email.disposable} badWhen={true} testId="flag-disposable" />
                <Flag label="Free provider" value={result.email.free_provider} badWhen="never" />
                <Flag label="Role account" value={result.email.role_account} badWhen="never" />
              </p>
            </>
          ) : (
            <p className="muted small">No email was assessed.</p>
          )}
        </div>
      </div>

      {result.account ? <AccountFacts account={result.account} /> : null}
      <IdentityFacts result={result} />

      <details className="card">
        <summary>Sources ({result.sources.length})</summary>
        <table className="list">
          <thead>
            <tr>
              <th>Source</th>
              <th>Kind</th>
              <th>Data from</th>
            </tr>
          </thead>
          <tbody>
            {result.sources.map((s) => {
              const title = sourceTitle(s.name, feeds);
              return (
                <tr key={s.name} data-testid="answer-source" data-name={s.name}>
                  <td>
                    {title}
                    {/* The id beside the title, as on the Data sources page, for support and the API. */}
                    {title !== s.name ? (
                      <>
                        {" "}
                        <code className="muted small">{s.name}</code>
                      </>
                    ) : null}
                  </td>
                  <td>{sourceKind(s.origin)}</td>
                  <td>{sourceDate(s, feeds)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </details>
      <details className="card" data-testid="answer-details">
        <summary>Details</summary>
        <StructureTree value={result} />
      </details>
      <details className="card" data-testid="answer-raw">
        <summary>Raw JSON</summary>
        <RawJson value={result} />
      </details>
    </section>
  );
}

/** "yes", "no" or "unknown" for a baseline fact that may be unknown (no country, no device_id). */
const yesNo = (v: boolean | null) => (v === null ? "unknown" : v ? "yes" : "no");

/** The account's own history: its baseline, its failed attempts and its travel since the last login. */
function AccountFacts({ account: a }: { account: NonNullable<AssessResult["account"]> }) {
  const by = a.key === "user_id" ? "user id" : "email address";
  return (
    <div className="card" data-testid="account-facts">
      <h2>Account</h2>
      <p>
        {a.seen_before
          ? `Known by its ${by} for ${a.first_seen_days === 0 ? "less than a day" : `${a.first_seen_days} day${a.first_seen_days === 1 ? "" : "s"}`}, ${a.assessments_30d} succeeded assessment${a.assessments_30d === 1 ? "" : "s"} in 30 days.`
          : `First seen now (by its ${by}): nothing to compare with, so nothing about it is new.`}
      </p>
      {a.travel ? (
        <p data-testid="account-travel">
          {a.travel.km.toLocaleString("en-US")} km from its last login{" "}
          {a.travel.from_country ? (
            <>
              in <Country code={a.travel.from_country} />
            </>
          ) : null}{" "}
          {a.travel.minutes} minutes earlier: {Math.round(a.travel.kmh).toLocaleString("en-US")} km/h
          {a.travel.impossible ? ", faster than any flight." : "."}
          {a.travel.note ? <span className="muted small"> {forUsers(a.travel.note)}</span> : null}
        </p>
      ) : null}
      <Facts
        rows={[
          ["New country", yesNo(a.new_country)],
          ["New network", yesNo(a.new_asn)],
          ["New device", yesNo(a.new_device)],
          ["Countries in 30 days", a.countries_30d],
          ["Failed attempts, last hour", <span data-testid="account-failed">{a.failed_logins_1h}</span>],
          ["Succeeded after failures", a.success_after_failures ? "yes" : "no"],
        ]}
      />
    </div>
  );
}

/** The address's network type in words, in the middle of a line ("network: hosting or cloud"), never the bare token. */
function networkWords(type: string): string {
  const text = NETWORK_TEXT[type] ?? type;
  return text.charAt(0).toLowerCase() + text.slice(1);
}
