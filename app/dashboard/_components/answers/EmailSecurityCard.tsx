// The summary card of an email security answer: the overall verdict in words, then each check with its verdict and
// the reason a person can act on. Mail transport security (MTA-STS, TLS reporting, DANE, BIMI) comes apart, as
// optional hardening: its absence is a "needs attention" here and never lowers the overall verdict.
import { type Json, Prose } from "./parts";
import { forUsers } from "./user-text";
import {
  EMAIL_AUTHENTICATION_CHECKS as AUTHENTICATION,
  EMAIL_TRANSPORT_CHECKS as TRANSPORT,
  OVERALL_WORDS,
  VERDICT_WORDS,
  type Verdict as VerdictStatus,
} from "../../../../server/email/security/verdict-words";

const TONE: Record<string, string> = { pass: "risk-low", warn: "risk-medium", fail: "risk-critical", unknown: "" };

function Verdict({ status, label }: { status: string; label: string }) {
  return (
    <span className={`badge ${TONE[status] ?? ""}`}>
      {`${label}: ${VERDICT_WORDS[status as VerdictStatus] ?? VERDICT_WORDS.unknown}`}
    </span>
  );
}

function Checks({ v, parts }: { v: Json; parts: readonly (readonly [string, string])[] }) {
  return (
    <ul className="answer-reasons small">
      {parts
        .filter(([key]) => v[key])
        .map(([key, label]) => (
          <li key={key} data-testid={`security-${key}`}>
            <Verdict status={v[key].status} label={label} /> <Prose text={forUsers(v[key].reason ?? "")} />
          </li>
        ))}
    </ul>
  );
}

export function EmailSecurityCard({ v }: { v: Json }) {
  const status: string = v.overall?.status ?? "unknown";
  return (
    <div className="card answer-card" data-testid="answer-card" data-kind="email-security">
      <h3 className="answer-title">
        <code>{v.domain}</code>{" "}
        <span className={`badge ${TONE[status] ?? ""}`} data-testid="security-overall">
          {OVERALL_WORDS[status as VerdictStatus] ?? OVERALL_WORDS.unknown}
        </span>
      </h3>
      <p className="muted small">
        <Prose text={forUsers(v.overall?.reason ?? "")} />
      </p>
      <h4>Sender authentication</h4>
      <Checks v={v} parts={AUTHENTICATION} />
      <h4>Mail transport security (optional hardening)</h4>
      <Checks v={v} parts={TRANSPORT} />
    </div>
  );
}
