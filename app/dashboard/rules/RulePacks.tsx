"use client";
// Rule packs: rules we ship for a known attack (card testing), off until the workspace enables them, in shadow to
// watch first or enforced. Enabling creates ordinary rules, which then appear in the list above. Before that, each
// rule can be opened as a new rule's draft (onTest) and backtested there, as the pack's words promise.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ErrorNote, ReadFailed } from "../_components/ErrorNote";
import { useTRPC } from "../_components/trpc";
import { DocText } from "../_components/DocText";
import { BusyButton } from "../_components/BusyButton";
import { keepIn } from "../_components/keep-in";
import type { RuleAction } from "./rule-draft";

type PackRule = { name: string; action: RuleAction; expression: string };

export function RulePacks({
  onTest,
  focusTest,
  onTestFocused,
}: {
  /** Opens the pack's rule in the rule editor, unsaved, to backtest it. */
  onTest: (rule: PackRule) => void;
  /** The name of the pack's rule whose editor just closed: keyboard focus comes back to its test button. */
  focusTest?: string;
  onTestFocused: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const packs = useQuery(trpc.rules.packs.queryOptions({}));
  // Enabled, a pack's buttons are gone, and the keyboard's focus with them (to the page's top): it goes to the pack's
  // heading, which now says "enabled", once the list says so.
  const [enabled, setEnabled] = useState<string | null>(null);
  const headings = useRef(new Map<string, HTMLHeadingElement>());
  const testButtons = useRef(new Map<string, HTMLButtonElement>());
  useEffect(() => {
    if (!focusTest) return;
    testButtons.current.get(focusTest)?.focus();
    onTestFocused();
  }, [focusTest, onTestFocused]);
  const enable = useMutation(
    trpc.rules.enablePack.mutationOptions({
      onSuccess: (_data, { pack_id }) => setEnabled(pack_id),
      onSettled: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.rules.list.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.rules.packs.pathKey() });
      },
    }),
  );
  useEffect(() => {
    if (!enabled || !packs.data?.items.find((p) => p.id === enabled)?.enabled) return;
    headings.current.get(enabled)?.focus();
    setEnabled(null);
  }, [enabled, packs.data]);
  return (
    <section className="card" data-testid="rule-packs">
      <h2>Rule packs</h2>
      <p className="muted small">
        Ready-made rules for known attacks, off until you enable them. Enable a pack in shadow to see what it would have
        done, or backtest each rule first.
      </p>
      <ReadFailed what="The rule packs" query={packs} />
      <ErrorNote error={enable.error} />
      {packs.isPending ? (
        <p className="muted" role="status">
          Loading rule packs…
        </p>
      ) : null}
      {packs.data?.items.length === 0 ? <p className="muted">No rule pack is available.</p> : null}
      {packs.data?.items.map((p) => (
        <div key={p.id} className="rule-pack" data-testid="rule-pack">
          <h3 tabIndex={-1} ref={keepIn(headings.current, p.id)}>
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
                {p.enabled ? null : (
                  <>
                    {" "}
                    <button
                      type="button"
                      className="btn"
                      ref={keepIn(testButtons.current, r.name)}
                      onClick={() => onTest(r)}
                    >
                      {/* The name starts with the visible words, so a voice command "Test first" finds it. */}
                      Test first<span className="visually-hidden"> “{r.name}” before enabling</span>
                    </button>
                  </>
                )}
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
