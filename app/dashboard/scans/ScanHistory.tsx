"use client";
// The workspace's scans of one host, newest first, with the score change and what changed since the one before.
import { useQuery } from "@tanstack/react-query";
import { ReadFailed } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";

export function ScanHistory({ host }: { host: string }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.scans.list.queryOptions({ host }));
  return (
    <section aria-labelledby="scan-history">
      <h2 id="scan-history">History of {host}</h2>
      {history.isLoading ? (
        <p className="muted" role="status">
          Loading the history…
        </p>
      ) : null}
      <ReadFailed what="The history" query={history} />
      {history.data && history.data.scans.length === 0 ? <p className="muted">No scans of this host yet.</p> : null}
      {history.data && history.data.scans.length > 0 ? (
        <ol className="scan-history" data-testid="scan-history">
          {history.data.scans.map((s) => (
            <li key={s.id}>
              <span className={`grade grade-small grade-${s.grade?.[0] ?? "none"}`}>{s.grade ?? "–"}</span>
              <span>
                {s.status === "done" ? `${s.score} points` : s.status}
                {s.score_delta !== null && s.score_delta !== 0
                  ? ` (${s.score_delta > 0 ? "+" : ""}${s.score_delta})`
                  : ""}{" "}
                · {formatUtc(s.created_at)} · {s.visibility}
                {s.changes.length > 0 ? (
                  <span className="muted small"> · changed: {s.changes.map((c) => c.test).join(", ")}</span>
                ) : null}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
