// Each check of a monitor as a coloured dot with its state in words beside it (never colour alone). The last run
// decides what "now" says: a check that could not be made on it says so, with the reason and the time, rather than
// "Not run yet" (a check that never succeeded has no stored state) or an older state as if it were current.
import type { MonitorCheck } from "../../../server/monitors/schemas";
import { formatUtc } from "../_components/format";
import { checkLabel, SEVERITY_WORDS, stateWords, type Severity } from "../../../server/monitors/state-words";

type States = Record<string, { severity: Severity; state: Record<string, unknown> }>;
/** The monitor's latest run: when it started and, per check, the error that kept the check from being made. */
export type LastRun = { at: string; results: Record<string, { error: { message: string } | null }> | null };

export function CheckDot({ severity }: { severity: Severity | "failed" | null }) {
  return <span className={`dot dot-${severity ?? "none"}`} aria-hidden="true" />;
}

/** An API error's message as the end of a sentence: no trailing full stop (the time follows it). */
const reason = (message: string) => message.trim().replace(/\.$/, "") || "no reason was given";

export function CheckStates({
  checks,
  states,
  lastRun = null,
  ranBefore = false,
  detailed = false,
}: {
  checks: Pick<MonitorCheck, "type">[];
  states: States;
  lastRun?: LastRun | null;
  /** The monitor has run at least once (its last_run_at): a check without a state is then not "not run yet". */
  ranBefore?: boolean;
  detailed?: boolean;
}) {
  return (
    <ul className="check-states" data-testid="check-states">
      {checks.map((c) => {
        const s = states[c.type];
        const failed = lastRun?.results?.[c.type]?.error ?? null;
        if (failed)
          return (
            <li key={c.type} className="check-state" data-check={c.type} data-severity="failed">
              <CheckDot severity="failed" />
              <span>
                {checkLabel(c.type)}: Could not check — {reason(failed.message)}
                {detailed ? <span className="muted"> ({formatUtc(lastRun!.at)})</span> : null}
                {detailed && s ? (
                  <span className="muted">
                    ; before that: {SEVERITY_WORDS[s.severity]}, {stateWords(c.type, s.state)}
                  </span>
                ) : null}
              </span>
            </li>
          );
        return (
          <li key={c.type} className="check-state" data-check={c.type} data-severity={s?.severity ?? "none"}>
            <CheckDot severity={s?.severity ?? null} />
            <span>
              {checkLabel(c.type)}: {s ? SEVERITY_WORDS[s.severity] : ranBefore ? "No result yet" : SEVERITY_WORDS.none}
              {detailed && s ? <span className="muted"> — {stateWords(c.type, s.state)}</span> : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
