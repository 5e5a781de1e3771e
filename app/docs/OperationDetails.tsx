"use client";
// An operation's details on demand: closed, the page holds only its summary line; opened (or linked to by its
// #id), it fetches the operation's slice of the document (/docs/operations/{id}) and renders it here, with
// examples against this site's own address.
import { useCallback, useEffect, useState } from "react";
import { Operation } from "./Operation";
import type { OperationSlice } from "./reference";

type State = { kind: "idle" } | { kind: "loading" } | { kind: "failed" } | { kind: "loaded"; slice: OperationSlice };

export function OperationDetails({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<State>({ kind: "idle" });

  const load = useCallback(async () => {
    setState({ kind: "loading" });
    try {
      const res = await fetch(`/docs/operations/${encodeURIComponent(id)}`);
      if (!res.ok) throw new Error(String(res.status));
      setState({ kind: "loaded", slice: (await res.json()) as OperationSlice });
    } catch {
      setState({ kind: "failed" });
    }
  }, [id]);

  useEffect(() => {
    if (open && state.kind === "idle") void load();
  }, [open, state.kind, load]);

  // A link to the operation (#id, from the sidebar or elsewhere) opens it.
  useEffect(() => {
    const follow = () => {
      if (decodeURIComponent(location.hash.slice(1)) === id) setOpen(true);
    };
    follow();
    window.addEventListener("hashchange", follow);
    return () => window.removeEventListener("hashchange", follow);
  }, [id]);

  return (
    <details className="op-more" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary data-testid="operation-open">Parameters, examples and responses</summary>
      {/* Closed and never opened, nothing is loading: no "Loading…" for the page's 70 closed operations. */}
      {state.kind === "loading" || (open && state.kind === "idle") ? (
        <p className="small muted" role="status">
          Loading…
        </p>
      ) : null}
      {state.kind === "failed" ? (
        <p className="small try-failed" role="alert">
          These details could not be loaded.{" "}
          <button type="button" className="link-button" onClick={() => void load()}>
            Try again
          </button>
        </p>
      ) : null}
      {state.kind === "loaded" ? <Operation slice={state.slice} origin={window.location.origin} /> : null}
    </details>
  );
}
