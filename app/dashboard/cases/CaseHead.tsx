// A case's one-line summary, the head of its card in the queue: the decision, the verdict once given, the account,
// the score and address, how long ago it opened, and for a resolved case who resolved it and when.
import type { ReactNode } from "react";
import { timeAgo } from "../_components/format";
import { age } from "./age";

type CaseLine = {
  decision: string;
  resolution: string | null;
  user_id: string | null;
  email: string | null;
  score: number;
  ip: string | null;
  age_minutes: number;
  assignee: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
};

export const who = (c: { user_id: string | null; email: string | null }) => c.user_id ?? c.email ?? "no account given";

export function CaseHead({
  c,
  resolvedBy,
  action,
}: {
  c: CaseLine;
  /** resolved_by in words ("you", "the API key “ci”"), or null when it is not known. */
  resolvedBy: string | null;
  action?: ReactNode;
}) {
  return (
    <div className="case-head">
      <div>
        <span className={`badge decision-${c.decision}`}>{c.decision}</span>{" "}
        {c.resolution ? (
          <span className={`badge ${c.resolution === "fraud" ? "risk-critical" : "risk-low"}`}>{c.resolution}</span>
        ) : null}{" "}
        <strong>{who(c)}</strong>
        <div className="muted small">
          Score {c.score} · {c.ip ?? "no IP"} · opened {age(c.age_minutes)} ago
          {c.assignee ? ` · assigned` : ""}
        </div>
        {c.resolved_at ? (
          <div className="muted small" data-testid="case-resolved-by">
            Resolved{resolvedBy ? ` by ${resolvedBy}` : ""} {timeAgo(c.resolved_at)}
          </div>
        ) : null}
      </div>
      {action}
    </div>
  );
}
