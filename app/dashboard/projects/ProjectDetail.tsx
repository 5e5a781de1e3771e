"use client";
// One project: its refs with their latest scans, new and fixed findings over time, the watch toggle, the open
// findings, and its scans (each opens its stored answer with the downloads). GET /v1/projects/{name} and .../scans.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { DEFAULT_REF } from "../../../clients/cli/src/project-name";
import { ConfirmQuestion } from "../_components/ConfirmQuestion";
import { ErrorNote, ReadFailed, retryRead } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { FindingList } from "./FindingList";
import { FindingsChart } from "./FindingsChart";
import { StoredScan } from "./StoredScan";
import { WatchToggle } from "./WatchToggle";
import { BusyButton } from "../_components/BusyButton";
import { useFocusNewRows } from "../_components/useFocusNewRows";

export function ProjectDetail({ name, onDeleted }: { name: string; onDeleted: (name: string) => void }) {
  const trpc = useTRPC();
  const client = useQueryClient();
  const [shown, setShown] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const project = useQuery(trpc.projects.get.queryOptions({ name }));
  const scans = useInfiniteQuery(
    trpc.projects.scans.infiniteQueryOptions(
      { name, limit: 50 },
      { getNextPageParam: (last) => last.next_cursor ?? undefined },
    ),
  );
  const remove = useMutation(
    trpc.projects.delete.mutationOptions({
      onSuccess: async () => {
        await client.invalidateQueries({ queryKey: trpc.projects.list.infiniteQueryKey() });
        onDeleted(name);
      },
    }),
  );
  const headingId = "project-detail-title";
  const rows = scans.data?.pages.flatMap((pg) => pg.items) ?? [];
  const more = useFocusNewRows<HTMLUListElement>(rows.length);
  if (project.isPending)
    return (
      <p className="muted" role="status">
        Loading {name}…
      </p>
    );
  // A name from the page's address that is no project name: said as the page's, not as the API's `name` field.
  if (project.error || !project.data)
    return (
      <ReadFailed
        what={`The project ${name}`}
        query={project}
        words={(m) => m.replace(/^name: must be/, `"${name}" is no project name: a project name is`)}
      />
    );
  const p = project.data;
  return (
    <section className="card project-detail" aria-labelledby={headingId} data-testid="project-detail">
      <h2 id={headingId}>{p.name}</h2>
      <table className="list cards" data-testid="project-refs">
        <caption className="visually-hidden">Refs of {p.name}</caption>
        <thead>
          <tr>
            <th scope="col">Ref</th>
            <th scope="col">Latest scan</th>
            <th scope="col">Packages</th>
            <th scope="col">Findings</th>
            <th scope="col">New</th>
            <th scope="col">Fixed</th>
          </tr>
        </thead>
        <tbody>
          {p.refs.map((r) => (
            <tr key={r.ref} data-testid="project-ref">
              <th scope="row" data-label="Ref">
                {r.ref}
              </th>
              <td data-label="Latest scan">{formatUtc(r.latest_scan.created_at)}</td>
              <td data-label="Packages">{r.latest_scan.summary.packages}</td>
              <td data-label="Findings">{r.latest_scan.summary.findings}</td>
              <td data-label="New">{r.latest_scan.summary.new}</td>
              <td data-label="Fixed">{r.latest_scan.summary.fixed}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <WatchToggle name={p.name} monitor={p.monitor} hasDefaultRef={p.refs.some((r) => r.ref === DEFAULT_REF)} />
      <FindingsChart scans={rows} />
      <h3>Open findings ({p.open_findings.length})</h3>
      <FindingList findings={p.open_findings} empty="No open findings." testId="open-findings" />
      <h3>Scans</h3>
      <ReadFailed
        what={scans.isFetchNextPageError ? "The older scans" : "The scans"}
        error={scans.error}
        onRetry={retryRead(scans)}
        retrying={scans.isFetching}
      />
      <ul className="project-scans" data-testid="project-scans" ref={more.list}>
        {rows.map((s) => (
          <li key={s.id} data-testid="project-scan">
            <div className="project-row">
              <span>
                <strong>{s.ref}</strong> · {formatUtc(s.created_at)}
                <span className="muted small project-line">
                  {s.summary.packages} packages · {s.summary.new} new · {s.summary.fixed} fixed · {s.summary.unchanged}{" "}
                  unchanged
                </span>
              </span>
              <button
                type="button"
                className="btn"
                aria-expanded={shown === s.id}
                onClick={() => setShown(shown === s.id ? null : s.id)}
                data-testid="project-scan-open"
              >
                {shown === s.id ? "Hide answer" : "Show answer"}
              </button>
            </div>
            {shown === s.id ? <StoredScan name={p.name} id={s.id} /> : null}
          </li>
        ))}
      </ul>
      {scans.hasNextPage ? (
        <button type="button" className="btn" onClick={() => more.loadMore(() => scans.fetchNextPage())}>
          Older scans
        </button>
      ) : null}
      <div className="project-danger">
        <button
          type="button"
          className="btn btn-danger"
          onClick={() => setConfirming(true)}
          data-testid="project-delete"
          data-confirm-trigger
        >
          Delete project
        </button>
        {confirming ? (
          <ConfirmQuestion
            className="notice"
            block
            label={`Delete ${p.name}`}
            question={
              <p>
                Delete every stored scan of {p.name}, of all its refs? This cannot be undone.
                {p.monitor ? " The monitor watching it is deleted too, with its runs and alerts." : ""}
              </p>
            }
            onCancel={() => setConfirming(false)}
            footer={<ErrorNote error={remove.error} />}
          >
            <BusyButton
              type="button"
              className="btn btn-danger"
              busy={remove.isPending}
              busyLabel="Deleting…"
              onClick={() => remove.mutate({ name: p.name })}
            >
              Yes, delete
            </BusyButton>
          </ConfirmQuestion>
        ) : null}
      </div>
    </section>
  );
}
