"use client";
// The workspace's rules in evaluation order (the same procedures as /v1/rules): each with its action, mode, whether
// it is on, and how it did over the last 30 days (matches and precision from outcome labels, as in
// /v1/analytics/summary); create, edit, switch on or off, switch between active and shadow, move up or down, and
// delete with an in-page confirmation. A plan without rules gets the list of plans that have them, from the catalog.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { PLAN_SLUGS, PLANS } from "../../../server/plans/catalog";
import { useDoneNotice } from "../_components/DoneNotice";
import { ErrorNote, ReadFailed } from "../_components/ErrorNote";
import { useTRPC, useTRPCClient } from "../_components/trpc";
import { isPlanRefusal, PlanGate } from "../_components/PlanGate";
import { emptyDraft, orList, type RuleDraft, type RuleRecord } from "./rule-draft";
import { RuleEditor } from "./RuleEditor";
import { RuleRow } from "./RuleRow";
import { RulePacks } from "./RulePacks";
import "./rules.css";

const RULE_PLANS = `need the ${orList(PLAN_SLUGS.filter((s) => PLANS[s].capabilities.includes("full")).map((s) => PLANS[s].name))} plan`;
const STATS_DAYS = 30;
/** Room between neighbours, so a rule moved later can be put between two without renumbering. */
const STEP = 10;

export function RulesView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.rules.list.queryOptions({}));
  const summary = useQuery({
    ...trpc.workspace.analyticsSummary.queryOptions({ days: STATS_DAYS }),
    enabled: list.isSuccess,
  });
  const [editing, setEditing] = useState<"new" | string | null>(null);
  // A pack's rule opened as a new rule's draft, to backtest it before the pack is enabled (RulePacks); its key
  // ("pack:<rule name>") is what `editing` holds while it is open.
  const [packDraft, setPackDraft] = useState<{ key: string; draft: RuleDraft } | null>(null);
  // What the last action did. A deleted rule's row (and the button pressed in it) is gone: the focus goes to the
  // line that says so. A rule moved, saved or created keeps the focus on its button.
  const done = useDoneNotice("rules-notice");
  const [moved, setMoved] = useState<{ id: string; by: -1 | 1 } | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  // When the editor closes, keyboard focus goes back to the button that opened it (the editor is gone): New rule,
  // the edited rule's "Edit or test" button in the list (RuleRow), or a pack's rule's test button (RulePacks).
  const [returnTo, setReturnTo] = useState<"new" | string | null>(null);
  useEffect(() => {
    if (returnTo === "new" && editing === null) {
      newButton.current?.focus();
      setReturnTo(null);
    }
  }, [returnTo, editing]);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.rules.list.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.workspace.analyticsSummary.pathKey() });
  };
  const update = useMutation(trpc.rules.update.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.rules.delete.mutationOptions({ onSettled: refresh }));
  // Moves show at once (the order on screen) and are written one after another: the new order as priorities STEP
  // apart, changing only the rules whose priority differs. A move made while earlier ones are being written waits
  // for them, so quick presses of Up and Down all count.
  const client = useTRPCClient();
  const [order, setOrder] = useState<string[] | null>(null);
  const [reorderError, setReorderError] = useState<unknown>(null);
  const writes = useRef<Promise<void>>(Promise.resolve());
  const pendingMoves = useRef(0);
  /** The priorities on the server as this page last wrote or read them. */
  const written = useRef(new Map<string, number>());
  const serverRules = list.data?.items ?? [];
  // What the server holds is known again once no move is being written and the list has been read afresh.
  useEffect(() => {
    if (order === null && list.data) written.current = new Map(list.data.items.map((r) => [r.id, r.priority]));
  }, [order, list.data]);
  const rules = order
    ? [
        ...order.map((id) => serverRules.find((r) => r.id === id)).filter((r): r is RuleRecord => r !== undefined),
        ...serverRules.filter((r) => !order.includes(r.id)),
      ]
    : serverRules;
  const stats = new Map((summary.data?.rules ?? []).map((q) => [q.id, q]));
  const editingRule = editing && editing !== "new" ? (rules.find((r) => r.id === editing) ?? null) : null;
  const nextPriority = rules.length ? Math.max(...rules.map((r) => r.priority)) + STEP : STEP;

  function move(id: string, by: -1 | 1) {
    const i = rules.findIndex((r) => r.id === id);
    const j = i + by;
    if (i < 0 || j < 0 || j >= rules.length) return;
    const ordered = [...rules];
    [ordered[i], ordered[j]] = [ordered[j]!, ordered[i]!];
    done.say(`Moved “${rules[i]!.name}” to position ${j + 1}.`, { focus: false });
    setMoved({ id, by });
    setOrder(ordered.map((r) => r.id));
    setReorderError(null);
    pendingMoves.current++;
    writes.current = writes.current
      .then(async () => {
        for (const [k, r] of ordered.entries()) {
          const priority = (k + 1) * STEP;
          if (written.current.get(r.id) === priority) continue;
          await client.rules.update.mutate({ id: r.id, priority });
          written.current.set(r.id, priority);
        }
      })
      .catch((err: unknown) => setReorderError(err))
      .finally(async () => {
        if (--pendingMoves.current > 0) return;
        await queryClient.invalidateQueries({ queryKey: trpc.rules.list.pathKey() });
        // A move made while the list was being read again keeps its order on screen until its own writes end.
        if (pendingMoves.current === 0) setOrder(null);
      });
  }

  if (isPlanRefusal(list.error)) {
    return (
      <>
        <h1>Rules</h1>
        <PlanGate feature="Rules" plans={RULE_PLANS} />
      </>
    );
  }

  return (
    <>
      <div className="row-between rules-head">
        <h1>Rules</h1>
        {list.isSuccess && editing === null ? (
          <button
            ref={newButton}
            type="button"
            className="btn btn-primary"
            onClick={() => (done.clear(), setMoved(null), setEditing("new"))}
            data-testid="rule-new"
          >
            New rule
          </button>
        ) : null}
      </div>
      <p className="muted small">
        Rules run on every assessment in this order; the first enabled, enforced rule that matches decides (an{" "}
        <em>allow</em> rule overrides the score). Shadow rules are evaluated and recorded but never change a decision:
        test a rule here or in shadow, then enforce it. Label answers on the{" "}
        <Link href="/dashboard/assess">Assess</Link> page to measure each rule&apos;s precision.
      </p>

      {editing !== null && (editing === "new" || editing === packDraft?.key || editingRule) ? (
        <RuleEditor
          key={editing}
          rule={editingRule}
          start={editing === packDraft?.key ? packDraft.draft : undefined}
          priority={nextPriority}
          onDone={(saved) => {
            if (saved) {
              done.say(editingRule ? "Rule saved." : "Rule created.", { focus: false });
              refresh();
            }
            setEditing(null);
            setReturnTo(editing);
          }}
        />
      ) : null}

      <section className="card" aria-busy={list.isFetching || order !== null} data-testid="rules-section">
        <h2>Evaluation order</h2>
        {done.notice}
        <ReadFailed what="The rules" query={list} />
        <ErrorNote error={update.error ?? remove.error ?? reorderError} />
        {list.isPending ? (
          <p className="muted" role="status">
            Loading rules…
          </p>
        ) : null}
        {list.isSuccess && rules.length === 0 ? (
          <p className="muted" data-testid="rules-empty">
            No rules yet: every decision comes from the score. Create one with <strong>New rule</strong>, e.g. review
            checkouts whose billing country differs from the IP&apos;s country.
          </p>
        ) : null}
        {rules.length > 0 ? <ModeSummary rules={rules} /> : null}
        {rules.length > 0 ? (
          <ReadFailed
            what={`The rules' measures of the last ${STATS_DAYS} days`}
            query={summary}
            testId="rule-stats-error"
          />
        ) : null}
        {rules.length > 0 ? (
          <ol className="rule-rows" data-testid="rules-list">
            {rules.map((r, i) => (
              <RuleRow
                key={r.id}
                rule={r}
                position={i + 1}
                count={rules.length}
                stats={stats.get(r.id)}
                statsDays={STATS_DAYS}
                statsPending={summary.isPending}
                statsFailed={summary.isError}
                focusMove={moved?.id === r.id ? moved.by : undefined}
                focusEdit={editing === null && returnTo === r.id}
                onEditFocused={() => setReturnTo(null)}
                onEdit={() => (done.clear(), setMoved(null), setEditing(r.id))}
                onMove={(by) => move(r.id, by)}
                onChange={(changes) => update.mutate({ id: r.id, ...changes })}
                onDelete={() => (
                  setMoved(null),
                  remove.mutateAsync({ id: r.id }).then(() => done.say(`Deleted “${r.name}”.`))
                )}
              />
            ))}
          </ol>
        ) : null}
      </section>
      {list.isSuccess ? (
        <RulePacks
          onTest={(r) => {
            const key = `pack:${r.name}`;
            done.clear();
            setMoved(null);
            setPackDraft({
              key,
              draft: { ...emptyDraft(), name: r.name, action: r.action, form: "expression", expression: r.expression },
            });
            setEditing(key);
          }}
          focusTest={editing === null && returnTo?.startsWith("pack:") ? returnTo.slice("pack:".length) : undefined}
          onTestFocused={() => setReturnTo(null)}
        />
      ) : null}
    </>
  );
}

/** Which rules decide and which only record, in one line above the list. */
function ModeSummary({ rules }: { rules: RuleRecord[] }) {
  const on = rules.filter((r) => r.enabled);
  const deciding = on.filter((r) => r.mode === "active").length;
  const shadow = on.filter((r) => r.mode === "shadow").length;
  const off = rules.length - on.length;
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  return (
    <p className="small" data-testid="rules-modes">
      <strong>{n(deciding, "rule decides", "rules decide")}</strong> (enforced);{" "}
      {n(shadow, "rule only records", "rules only record")} what {shadow === 1 ? "it" : "they"} would do (shadow)
      {off ? `; ${n(off, "rule is", "rules are")} disabled` : ""}.
    </p>
  );
}
