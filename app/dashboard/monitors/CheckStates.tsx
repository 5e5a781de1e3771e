// Each check of a monitor as a coloured dot with its state in words beside it (never colour alone).
import type { MonitorCheck } from "../../../server/monitors/schemas";
import { checkLabel, SEVERITY_WORDS, stateWords, type Severity } from "./words";

type States = Record<string, { severity: Severity; state: Record<string, unknown> }>;

export function CheckDot({ severity }: { severity: Severity | null }) {
  return <span className={`dot dot-${severity ?? "none"}`} aria-hidden="true" />;
}

export function CheckStates({
  checks,
  states,
  detailed = false,
}: {
  checks: Pick<MonitorCheck, "type">[];
  states: States;
  detailed?: boolean;
}) {
  return (
    <ul className="check-states" data-testid="check-states">
      {checks.map((c) => {
        const s = states[c.type];
        return (
          <li key={c.type} className="check-state" data-check={c.type} data-severity={s?.severity ?? "none"}>
            <CheckDot severity={s?.severity ?? null} />
            <span>
              {checkLabel(c.type)}: {SEVERITY_WORDS[s?.severity ?? "none"]}
              {detailed && s ? <span className="muted"> — {stateWords(c.type, s.state)}</span> : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
