// A device diagnosis: the verdict and risk first, then each consistency check and signal with its reason.
import type { DeviceDiagnosis } from "../../../server/device/schemas";

const VERDICT_TEXT = {
  automated: "This browser is driven by automation.",
  suspicious: "This browser shows headless markers.",
  human: "This looks like a person's browser.",
} as const;

const RESULT_TEXT = { consistent: "consistent", inconsistent: "inconsistent", not_checked: "not checked" } as const;
const CHECK_TEXT = {
  timezone_vs_ip: "Time zone against the IP's location",
  user_agent_vs_client_hints: "User agent against client hints",
  user_agent_vs_platform: "User agent against platform",
  languages: "Languages",
  language_vs_ip: "Languages against the IP's country",
} as const;

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

export function Diagnosis({ diagnosis: d }: { diagnosis: DeviceDiagnosis }) {
  return (
    <section className="device-diagnosis" data-testid="device-diagnosis">
      <div className="card">
        <p className="answer-headline">
          <span className={`badge verdict-${d.automation.verdict}`} data-testid="device-verdict">
            {d.automation.verdict}
          </span>{" "}
          risk contribution <strong data-testid="device-risk">{d.risk.score}</strong>
        </p>
        <p>{VERDICT_TEXT[d.automation.verdict]}</p>
        <ul className="small">
          {d.automation.reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
        <p className="muted small">
          Device id <code>{d.device_id}</code>. Seen in the last {d.velocity.window_minutes} minutes with{" "}
          {count(d.velocity.accounts, "account", "accounts")}, {count(d.velocity.emails, "email", "emails")} and{" "}
          {count(d.velocity.ips, "IP address", "IP addresses")}.
        </p>
      </div>
      <h2>Checks</h2>
      <ul className="device-checks">
        {d.consistency.map((c) => (
          <li key={c.check} className={`device-check device-${c.result}`}>
            <strong>{CHECK_TEXT[c.check]}</strong>: {RESULT_TEXT[c.result]}
            <p className="small">{c.reason}</p>
          </li>
        ))}
      </ul>
      {d.risk.signals.length > 0 ? (
        <>
          <h2>Signals</h2>
          <ul className="signal-list">
            {d.risk.signals.map((s) => (
              <li key={s.code}>
                <span className="weight weight-up">+{s.weight}</span> {s.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
