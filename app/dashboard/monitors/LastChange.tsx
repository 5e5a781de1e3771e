"use client";
// A monitor's latest alert in one line ("TLS certificate: certificate expires within 7 days, 2 h ago"). A failed read
// of the alerts says so with Retry: "No change yet." is said only when the service answered that there is none.
import { useQuery } from "@tanstack/react-query";
import { ReadFailed } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { ago, checkLabel, stateWords } from "../../../server/monitors/state-words";

export function LastChange({ id }: { id: string }) {
  const trpc = useTRPC();
  const alerts = useQuery(trpc.monitors.alerts.queryOptions({ id, limit: 1 }));
  const a = alerts.data?.items[0];
  if (alerts.isPending) return <span className="muted small">Reading the last change…</span>;
  if (alerts.isError)
    return <ReadFailed what="The last change" query={alerts} className="error small" testId="last-change-error" />;
  if (!a)
    return (
      <span className="muted small" data-testid="last-change-none">
        No change yet.
      </span>
    );
  const what =
    a.type === "monitor.skipped"
      ? "a run was skipped"
      : a.type === "monitor.resolved"
        ? `resolved (${stateWords(a.check, a.after)})`
        : stateWords(a.check, a.after);
  return (
    <span className="small" data-testid="last-change">
      Last change: {checkLabel(a.check)}: {what}, {ago(a.created_at)}
    </span>
  );
}
