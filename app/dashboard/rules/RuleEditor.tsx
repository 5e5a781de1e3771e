"use client";
// Creating or editing one rule: its name, action, mode (enforced or shadow: an explicit choice, never a silent
// default), conditions or expression, and the backtest of the draft before it is saved. The server validates; what
// it refuses is shown where it belongs.
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { errorCode, ErrorNote } from "../_components/ErrorNote";
import { useFieldProblems } from "../_components/field-problem";
import { useTRPC } from "../_components/trpc";
import { BacktestPanel, type BacktestRange } from "./BacktestPanel";
import { ConditionBuilder } from "./ConditionBuilder";
import { ExpressionEditor } from "./ExpressionEditor";
import {
  ACTION_TEXT,
  ACTIONS,
  emptyDraft,
  draftOf,
  overrideWarning,
  ruleBody,
  splitServerError,
  type RuleAction,
  type RuleDraft,
  type RuleRecord,
} from "./rule-draft";
import { BusyButton } from "../_components/BusyButton";

/** The two modes, as the form offers them: neither is chosen for a new rule. */
const MODE_CHOICES: { value: "active" | "shadow"; label: string; hint: string }[] = [
  {
    value: "active",
    label: "Enforce: it decides",
    hint: "When it matches, its action becomes the assessment's decision.",
  },
  {
    value: "shadow",
    label: "Shadow: it only records",
    hint: "Evaluated and recorded on every assessment (with what it would have changed), but never changes a decision.",
  },
];

export function RuleEditor({
  rule,
  start,
  priority,
  onDone,
}: {
  rule: RuleRecord | null;
  /** A new rule's first draft (a pack's rule, to test before the pack is enabled); else an empty one. */
  start?: RuleDraft;
  priority: number;
  onDone: (saved: boolean) => void;
}) {
  const trpc = useTRPC();
  const [d, setD] = useState<RuleDraft>(() => (rule ? draftOf(rule) : (start ?? emptyDraft())));
  const nameRef = useRef<HTMLInputElement>(null);
  const create = useMutation(trpc.rules.create.mutationOptions({ onSuccess: () => onDone(true) }));
  const update = useMutation(trpc.rules.update.mutationOptions({ onSuccess: () => onDone(true) }));
  const backtest = useMutation(trpc.rules.backtest.mutationOptions());
  const save = rule ? update : create;

  useEffect(() => nameRef.current?.focus(), []);

  // The newest refusal, from saving or from testing, is the one shown.
  const [shownError, setShownError] = useState<unknown>(null);
  useEffect(() => setShownError(save.error), [save.error]);
  useEffect(() => setShownError(backtest.error), [backtest.error]);
  const warning = overrideWarning(d);
  const split =
    errorCode(shownError) === "INVALID_REQUEST" ? splitServerError((shownError as { message?: string }).message) : null;

  // A refusal is about the draft it was given: once the draft changes, it no longer points at the right place.
  const change = (next: Partial<RuleDraft>) => {
    setShownError(null);
    setD((old) => ({ ...old, ...next }));
  };

  const [modeMissing, setModeMissing] = useState(false);
  const firstMode = useRef<HTMLInputElement>(null);
  // A blank name (spaces only too) is said beside the Name field before anything is sent, as the service would
  // refuse it; a refusal of the name by the service is said there as well. Either marks the field and, once per
  // attempt or refusal, puts the keyboard on it (field-problem.ts).
  const [nameMissing, setNameMissing] = useState(false);
  const [attempt, setAttempt] = useState<object | null>(null);
  const nameProblem = nameMissing ? "Name must not be empty." : (split?.name ?? undefined);
  const { problemId, fieldProps } = useFieldProblems({ name: nameProblem }, attempt ?? shownError);
  const { ref: nameProblemRef, ...nameMarks } = fieldProps("name");
  const nameInput = (el: HTMLInputElement | null) => {
    nameRef.current = el;
    nameProblemRef(el);
  };

  function submit() {
    if (save.isPending) return;
    const blank = d.name.trim() === "";
    setNameMissing(blank);
    if (d.mode === null) setModeMissing(true);
    if (blank) {
      // The name comes first in the form: it takes the focus, and the mode's note (if any) is shown as well.
      setAttempt({});
      return;
    }
    setAttempt(null);
    if (d.mode === null) {
      firstMode.current?.focus();
      return;
    }
    const body = { name: d.name.trim(), action: d.action, mode: d.mode, enabled: d.enabled };
    // An edit sends the conditions or the expression only when they changed: a rule saved under an older check
    // (`country eq XX` from before conditions were judged by the country check) is renamed, switched or given
    // another action without its stored test being judged again, and refused, by today's check.
    if (rule) update.mutate({ id: rule.id, ...body, ...changedTest(d, rule) });
    else create.mutate({ ...body, priority, ...ruleBody(d) });
  }

  function runBacktest(r: BacktestRange) {
    backtest.mutate({
      action: d.action,
      priority: rule?.priority ?? priority,
      ...ruleBody(d),
      since: r.since.toISOString(),
      until: r.until.toISOString(),
      samples: 10,
    });
  }

  return (
    <section className="card rule-editor" aria-labelledby="rule-editor-title" data-testid="rule-editor">
      <h2 id="rule-editor-title">{rule ? `Edit “${rule.name}”` : "New rule"}</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <div className="field-grid">
          <div>
            <label>
              Name
              <input
                value={d.name}
                onChange={(e) => {
                  setNameMissing(false);
                  change({ name: e.target.value });
                }}
                maxLength={120}
                required
                placeholder="Foreign card, big basket"
                ref={nameInput}
                {...nameMarks}
                data-testid="rule-name"
              />
            </label>
            {nameProblem ? (
              <p className="error" role="alert" id={problemId("name")} data-testid="rule-name-error">
                {nameProblem}
              </p>
            ) : null}
          </div>
          <label>
            Action when it matches
            <select
              value={d.action}
              onChange={(e) => change({ action: e.target.value as RuleAction })}
              aria-describedby="rule-action-hint"
              data-testid="rule-action"
            >
              {ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
            <span className="hint" id="rule-action-hint">
              {ACTION_TEXT[d.action]}
            </span>
          </label>
          <div className="switch-field">
            <Switch
              checked={d.enabled}
              onChange={(on) => change({ enabled: on })}
              label="Enabled"
              testId="rule-enabled"
              hint="A disabled rule is kept but not evaluated."
            />
          </div>
        </div>

        <fieldset
          className="rule-mode"
          aria-describedby={modeMissing && d.mode === null ? "rule-mode-error" : undefined}
          data-testid="rule-mode-choice"
        >
          <legend>Enforce it, or run it in shadow?</legend>
          {MODE_CHOICES.map((m, i) => (
            <label key={m.value} className={d.mode === m.value ? "rule-mode-option selected" : "rule-mode-option"}>
              <input
                ref={i === 0 ? firstMode : undefined}
                type="radio"
                name="rule-mode"
                value={m.value}
                checked={d.mode === m.value}
                onChange={() => {
                  setModeMissing(false);
                  change({ mode: m.value });
                }}
                data-testid={`rule-mode-${m.value}`}
              />
              <span>
                <strong>{m.label}</strong>
                <span className="hint">{m.hint}</span>
              </span>
            </label>
          ))}
          {modeMissing && d.mode === null ? (
            <p className="error" role="alert" id="rule-mode-error" data-testid="rule-mode-error">
              Choose whether this rule decides (enforce) or only records what it would do (shadow).
            </p>
          ) : null}
        </fieldset>

        <div className="segmented" role="radiogroup" aria-label="Rule form">
          {(["conditions", "expression"] as const).map((f) => (
            <label key={f} className={d.form === f ? "selected" : undefined}>
              <input
                type="radio"
                name="rule-form"
                value={f}
                checked={d.form === f}
                onChange={() => change({ form: f })}
                data-testid={`form-${f}`}
              />
              {f === "conditions" ? "Conditions" : "Expression (CEL)"}
            </label>
          ))}
        </div>

        {d.form === "conditions" ? (
          <ConditionBuilder
            conditions={d.conditions}
            errors={split?.conditions ?? {}}
            focusOn={shownError}
            onChange={(conditions) => change({ conditions })}
          />
        ) : (
          <ExpressionEditor
            value={d.expression}
            error={split?.expression ?? null}
            focusOn={shownError}
            onChange={(expression) => change({ expression })}
          />
        )}

        {warning ? (
          <p className="notice" role="note" data-testid="rule-override-warning">
            {warning}
          </p>
        ) : null}

        {split ? (
          split.other.map((m) => (
            <p key={m} className="error" role="alert" data-testid="rule-error">
              {m}
            </p>
          ))
        ) : (
          <ErrorNote error={shownError} />
        )}

        <div className="form-row rule-editor-actions">
          <BusyButton
            type="submit"
            className="btn btn-primary"
            busy={save.isPending}
            busyLabel="Saving…"
            data-testid="rule-save"
          >
            {rule
              ? "Save changes"
              : d.mode === "shadow"
                ? "Save as shadow rule"
                : d.mode === "active"
                  ? "Save and enforce"
                  : "Save rule"}
          </BusyButton>
          <button type="button" className="btn" onClick={() => onDone(false)}>
            Cancel
          </button>
        </div>
      </form>
      <BacktestPanel pending={backtest.isPending} result={backtest.data} onRun={runBacktest} />
    </section>
  );
}

/** The draft's conditions or expression when they differ from the stored rule's as the editor opened it; else nothing. */
function changedTest(d: RuleDraft, rule: RuleRecord): ReturnType<typeof ruleBody> | Record<string, never> {
  const now = ruleBody(d);
  return JSON.stringify(now) === JSON.stringify(ruleBody(draftOf(rule))) ? {} : now;
}

/** An on/off switch: a button with role switch, so screen readers and keyboards treat it as one. */
export function Switch({
  checked,
  onChange,
  label,
  hint,
  testId,
  disabled,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
  label: string;
  hint?: string;
  testId?: string;
  disabled?: boolean;
}) {
  return (
    <div className="switch-wrap">
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        className="switch"
        onClick={() => onChange(!checked)}
        data-testid={testId}
        disabled={disabled}
      >
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span>{label}</span>
      </button>
      {hint ? <span className="hint">{hint}</span> : null}
    </div>
  );
}
