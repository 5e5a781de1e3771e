"use client";
// The workspace's projects, by name, each with its latest scan; one opens its page below the list (refs, findings
// over time, the watch toggle, its scans). Same data as GET /v1/projects, 20 a page.
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useDoneNotice } from "../_components/DoneNotice";
import { ReadFailed, retryRead } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { ProjectDetail } from "./ProjectDetail";
import { useFocusNewRows } from "../_components/useFocusNewRows";

export function ProjectsView({ initial = null }: { initial?: string | null }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState<string | null>(initial);
  const projects = useInfiniteQuery(
    trpc.projects.list.infiniteQueryOptions(
      { limit: 20 },
      { getNextPageParam: (last) => last.next_cursor ?? undefined },
    ),
  );
  const rows = projects.data?.pages.flatMap((p) => p.items) ?? [];
  const more = useFocusNewRows<HTMLUListElement>(rows.length);
  // A deleted project's page goes, with the button pressed in it: a line says which project went and takes the focus.
  const done = useDoneNotice();
  return (
    <>
      <section className="card" aria-labelledby="projects-title">
        <h2 id="projects-title">Your projects</h2>
        {done.notice}
        <ReadFailed
          what={projects.isFetchNextPageError ? "The next projects" : "The projects"}
          error={projects.error}
          onRetry={retryRead(projects)}
          retrying={projects.isFetching}
        />
        {projects.isPending ? (
          <p className="muted" role="status">
            Loading projects…
          </p>
        ) : null}
        {projects.data && rows.length === 0 ? (
          <p className="muted" data-testid="projects-empty">
            No projects yet. Scan a lockfile with a project name (“Scan a lockfile” on the{" "}
            <Link href="/dashboard/vulnerabilities">Vulnerabilities</Link> page, or <code>?project=acme/web</code> from
            the API) and it is listed here with its history.
          </p>
        ) : null}
        <ul className="project-list" data-testid="projects" ref={more.list}>
          {rows.map((p) => (
            <li key={p.name} data-testid="project" data-name={p.name}>
              <div className="project-row">
                <div>
                  <strong>{p.name}</strong>
                  <span className="muted small project-line">
                    {p.scans} scan{p.scans === 1 ? "" : "s"} · latest {formatUtc(p.latest_scan.created_at)} on{" "}
                    {p.latest_scan.ref} · {p.latest_scan.summary.findings} finding
                    {p.latest_scan.summary.findings === 1 ? "" : "s"}
                  </span>
                </div>
                <button
                  type="button"
                  className="btn"
                  aria-expanded={open === p.name}
                  onClick={() => setOpen(open === p.name ? null : p.name)}
                  data-testid="project-open"
                >
                  {open === p.name ? "Close" : "Open"}
                </button>
              </div>
            </li>
          ))}
        </ul>
        {projects.hasNextPage ? (
          <button type="button" className="btn" onClick={() => more.loadMore(() => projects.fetchNextPage())}>
            More projects
          </button>
        ) : null}
      </section>
      {open ? (
        <ProjectDetail key={open} name={open} onDeleted={(gone) => (setOpen(null), done.say(`Deleted “${gone}”.`))} />
      ) : null}
    </>
  );
}
