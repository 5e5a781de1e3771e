"use client";
// One stored scan of a project: what it added and fixed against its base, then the answer as it was given, with the
// CSV and SARIF downloads (the scan's own renderers, as on the Vulnerabilities page: no new scan, no unit).
import { useQuery } from "@tanstack/react-query";
import type { ScanReport } from "../../../server/vulnerabilities/lockfile-scan/schemas";
import { ReadFailed } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { ScanResult } from "../vulnerabilities/ScanResult";
import { FindingList } from "./FindingList";

export function StoredScan({ name, id }: { name: string; id: string }) {
  const trpc = useTRPC();
  const stored = useQuery(trpc.projects.scan.queryOptions({ name, id }));
  if (stored.isPending)
    return (
      <p className="muted" role="status">
        Loading the scan…
      </p>
    );
  if (stored.error || typeof stored.data === "string") return <ReadFailed what="The scan" query={stored} />;
  const answer = stored.data;
  const diff = answer.diff;
  return (
    <div className="stored-scan" data-testid="stored-scan">
      {diff ? (
        <section className="card" aria-labelledby={`diff-${id}`}>
          <h3 id={`diff-${id}`}>
            {diff.base
              ? `Against ${diff.base.ref} of ${formatUtc(diff.base.created_at)}`
              : "The project's first scan of its default ref: everything found is new"}
          </h3>
          <h4>New ({diff.new.length})</h4>
          <FindingList findings={diff.new} empty="Nothing new." testId="diff-new" />
          <h4>Fixed ({diff.fixed.length})</h4>
          <FindingList findings={diff.fixed} empty="Nothing fixed." testId="diff-fixed" />
          <p className="muted small">
            {diff.unchanged} finding{diff.unchanged === 1 ? "" : "s"} unchanged.
          </p>
        </section>
      ) : null}
      <ScanResult report={answer as ScanReport} fileName={null} stale={false} />
    </div>
  );
}
