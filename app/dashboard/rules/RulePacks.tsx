"use client";
// Rule packs: rules we ship for a known attack (card testing), off until the workspace enables them, in shadow to
// watch first or enforced. Enabling creates ordinary rules, which then appear in the list above.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorNote } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { DocText } from "../_components/DocText";
import { BusyButton } from "../_components/BusyButton";

export function RulePacks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const packs = useQuery(trpc.rules.packs.queryOptions({}));
  const enable = useMutation(
    trpc.rules.enablePack.mutationOptions({
      onSettled: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.rules.list.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.rules.packs.pathKey() });
      },
    }),
  );
  return (
    <section className="card" data-testid="rule-packs">
      <h2>Rule packs</h2>
      <p className="muted small">
        Ready-made rules for known attacks, off until you enable them. Enable a pack in shadow to see what it would have
        done, or backtest each rule first.
      </p>
      <ErrorNote error={packs.error ?? enable.error} />
      {packs.isPending ? (
        <p className="muted" role="status">
          Loading rule packs…
        </p>
      ) : null}
      {packs.data?.items.length === 0 ? <p className="muted">No rule pack is available.</p> : null}
      {packs.data?.items.map((p) => (
        <div key={p.id} className="rule-pack" data-testid="rule-pack">
          <h3>
            {p.name}{" "}
            {p.enabled ? <span className="badge badge-active">enabled</span> : <span className="badge">off</span>}
          </h3>
          <p className="small">
            <DocText text={p.description} />
          </p>
          <ul className="small">
            {p.rules.map((r) => (
              <li key={r.name}>
                <strong>{r.name}</strong> ({r.action}): <DocText text={r.why} />{" "}
                <code className="muted">{r.expression}</code>
              </li>
            ))}
          </ul>
          {p.enabled ? null : (
            <div className="row">
              <BusyButton
                type="button"
                className="btn btn-primary"
                busy={enable.isPending}
                onClick={() => enable.mutate({ pack_id: p.id })}
                data-testid="rule-pack-enable"
              >
                Enable
              </BusyButton>
              <BusyButton
                type="button"
                className="btn"
                busy={enable.isPending}
                onClick={() => enable.mutate({ pack_id: p.id, mode: "shadow" })}
              >
                Enable in shadow
              </BusyButton>
            </div>
          )}
        </div>
      ))}
    </section>
  );
}
