"use client";
// The overview's data-sources card: each area with its lists' ages, and a count of failing refreshes; the whole
// list is one click away on /dashboard/sources.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ReadFailed } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { ageText, sourceArea, SOURCE_AREAS } from "./source-text";
import "./sources.css";

export function SourcesCard() {
  const trpc = useTRPC();
  const q = useQuery(trpc.sources.list.queryOptions({}));
  const sources = q.data?.sources ?? [];
  const failing = sources.filter((s) => s.refresh.status === "failing").length;
  return (
    <div className="card" data-testid="sources-card">
      <h2>Data sources</h2>
      <ReadFailed what="The data sources" query={q} />
      {q.isPending ? <p className="muted small">Loading data sources…</p> : null}
      {sources.length > 0 ? (
        <>
          <ul className="small sources-card-list">
            {SOURCE_AREAS.map((a) => {
              const rows = sources.filter((s) => sourceArea(s.name) === a.id && s.age_seconds !== null);
              if (rows.length === 0) return null;
              const ages = rows.map((r) => r.age_seconds!).sort((x, y) => x - y);
              const newest = ages[0]!;
              const oldest = ages[ages.length - 1]!;
              return (
                <li key={a.id}>
                  <strong>{a.label}</strong>: {rows.length} list{rows.length === 1 ? "" : "s"}, data {ageText(newest)}
                  {oldest !== newest ? ` to ${ageText(oldest)}` : ""} old
                </li>
              );
            })}
          </ul>
          <p className="small">
            {failing
              ? `${failing} refresh${failing === 1 ? " is" : "es are"} failing; the previous data stays in use. `
              : ""}
            <Link href="/dashboard/sources">Every source, its age and refresh</Link>
          </p>
        </>
      ) : null}
    </div>
  );
}
