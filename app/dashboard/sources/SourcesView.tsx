"use client";
// The data every answer draws on (GET /v1/sources through the dashboard's tRPC endpoint): a summary of how fresh it is, then
// each feed by area with its entries, the date of its data, and whether it refreshes itself. A failing refresh is
// shown as such, with the data kept in use; source addresses and error texts stay with the operator.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ReadFailed } from "../_components/ErrorNote";
import { formatUtc } from "../_components/format";
import { useTRPC } from "../_components/trpc";
import { ageText, cadenceText, sourceArea, SOURCE_AREAS, type DataSource } from "./source-text";
import "./sources.css";

function RefreshState({ s }: { s: DataSource }) {
  const r = s.refresh;
  switch (r.status) {
    case "ok":
      return (
        <span className="flag flag-good" data-testid="source-refresh">
          Refreshes {cadenceText(r.every_seconds)}
          {r.next_run_at ? <span className="muted"> · next {formatUtc(r.next_run_at)}</span> : null}
        </span>
      );
    case "failing":
      return (
        <span className="flag flag-bad" data-testid="source-refresh">
          {s.entries > 0
            ? `Last refresh failed${r.last_failed_at ? ` ${formatUtc(r.last_failed_at)}` : ""}${r.last_error ? ` (${r.last_error})` : ""}; the previous data stays in use and the refresh is retried`
            : `Not downloaded yet: the last try failed${r.last_failed_at ? ` ${formatUtc(r.last_failed_at)}` : ""}${r.last_error ? ` (${r.last_error})` : ""}; it is retried`}
        </span>
      );
    case "off":
      return (
        <span className="flag flag-neutral" data-testid="source-refresh">
          Automatic refresh switched off on this installation
        </span>
      );
    default:
      return (
        <span className="flag flag-neutral" data-testid="source-refresh">
          Snapshot: updated with each release
        </span>
      );
  }
}

const SHOW = [
  { value: "all", label: "All sources" },
  { value: "failing", label: "Refresh failing" },
  { value: "scheduled", label: "Refresh themselves" },
  { value: "snapshot", label: "Not refreshed automatically" },
] as const;
type Show = (typeof SHOW)[number]["value"];

/**
 * Whether a source passes the page's filter: words in its name, description or licence (each word the start of a
 * word there, so "tor" finds the Tor lists but not "operators"), and a refresh state.
 */
function matches(s: DataSource, text: string, show: Show): boolean {
  const state = s.refresh.status;
  if (show === "failing" && state !== "failing") return false;
  if (show === "scheduled" && state !== "ok" && state !== "failing") return false;
  if (show === "snapshot" && (state === "ok" || state === "failing")) return false;
  const haystack = `${s.name} ${s.description} ${s.license} ${s.attribution ?? ""}`.toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => new RegExp(`(^|[^a-z0-9])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`).test(haystack));
}

export function SourcesView() {
  const [text, setText] = useState("");
  const [show, setShow] = useState<Show>("all");
  const trpc = useTRPC();
  const q = useQuery(trpc.sources.list.queryOptions({}));
  const sources = q.data?.sources ?? [];
  const scheduled = sources.filter((s) => s.refresh.status === "ok" || s.refresh.status === "failing").length;
  const failing = sources.filter((s) => s.refresh.status === "failing");
  const shown = sources.filter((s) => matches(s, text, show));
  const oldest = sources
    .filter((s) => s.age_seconds !== null)
    .sort((a, b) => (b.age_seconds ?? 0) - (a.age_seconds ?? 0))[0];

  return (
    <>
      <h1>Data sources</h1>
      <p className="muted small">
        Every lookup and assessment draws on these lists. Each answer names the ones it used and how old their data was;
        a refresh that fails never removes data.
      </p>
      <ReadFailed what="The data sources" query={q} testId="sources-read-error" />
      {q.isPending ? (
        <p className="muted" role="status">
          Loading data sources…
        </p>
      ) : null}
      {q.data && sources.length === 0 ? (
        <p className="muted">No data sources are loaded on this installation.</p>
      ) : null}
      {sources.length > 0 ? (
        <>
          <section className="card source-summary" aria-label="Summary" data-testid="sources-summary">
            <div>
              <strong>{sources.length}</strong>
              <span className="muted">sources</span>
            </div>
            <div>
              <strong>{scheduled}</strong>
              <span className="muted">refresh themselves</span>
            </div>
            <div className={failing.length ? "bad" : undefined}>
              <strong data-testid="sources-failing">{failing.length}</strong>
              <span className="muted">{failing.length === 1 ? "refresh failing" : "refreshes failing"}</span>
            </div>
            {oldest ? (
              <div data-testid="sources-oldest" data-name={oldest.name}>
                <strong>{ageText(oldest.age_seconds)}</strong>
                {/* Named by its title, as its row is: the id stays beside the title there, for support and the API. */}
                <span className="muted">oldest data ({oldest.description})</span>
              </div>
            ) : null}
          </section>
          <form className="card source-filter" aria-label="Filter the sources" onSubmit={(e) => e.preventDefault()}>
            <label>
              Find
              <input
                type="search"
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder="e.g. tor, cloud, CC0"
                data-testid="sources-filter"
              />
            </label>
            <label>
              Show
              <select value={show} onChange={(e) => setShow(e.target.value as Show)} data-testid="sources-show">
                {SHOW.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            <p className="muted small" role="status" data-testid="sources-shown">
              {shown.length === sources.length
                ? `All ${sources.length} sources`
                : `${shown.length} of ${sources.length} sources`}
            </p>
          </form>
          {shown.length === 0 ? (
            <div className="card" data-testid="sources-none">
              <p>No source matches this filter.</p>
              <button
                type="button"
                className="btn"
                onClick={() => {
                  setText("");
                  setShow("all");
                }}
              >
                Show all sources
              </button>
            </div>
          ) : null}
          {SOURCE_AREAS.map((area) => {
            const rows = shown.filter((s) => sourceArea(s.name) === area.id);
            if (rows.length === 0) return null;
            return (
              <section className="card" key={area.id} aria-labelledby={`area-${area.id}`}>
                <h2 id={`area-${area.id}`}>{area.label}</h2>
                <ul className="source-list">
                  {rows.map((s) => (
                    <li key={s.name} data-testid="source-row" data-name={s.name} data-refresh={s.refresh.status}>
                      <div className="source-head">
                        <strong>{s.description}</strong>
                        <code className="muted">{s.name}</code>
                      </div>
                      <p className="source-facts">
                        <span>
                          <strong>{s.entries.toLocaleString("en")}</strong> entries
                        </span>
                        <span>
                          {s.fetched_at ? (
                            <>
                              Data from {s.fetched_at.slice(0, 10)} ({ageText(s.age_seconds)} old,{" "}
                              {s.origin === "refreshed" ? "refreshed" : "shipped with the release"})
                            </>
                          ) : (
                            "No data yet"
                          )}
                        </span>
                      </p>
                      <RefreshState s={s} />
                      <details>
                        <summary>Licence and attribution</summary>
                        <p className="small">
                          {s.license}
                          {s.attribution ? ` · ${s.attribution}` : ""}
                        </p>
                      </details>
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
        </>
      ) : null}
    </>
  );
}
