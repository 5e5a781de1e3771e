"use client";
// One rule in the evaluation order: summary first (name, action, mode, on or off, how it did), what it tests, and
// its controls. Deleting asks in the page, with focus on the safe answer.
import { useEffect, useRef, useState } from "react";
import { CONDITION_FIELDS } from "../../../server/rules/conditions";
import { ConfirmQuestion } from "../_components/ConfirmQuestion";
import { OP_LABEL, percent, type RuleQuality, type RuleRecord } from "./rule-draft";
import { Switch } from "./RuleEditor";
import { BusyButton } from "../_components/BusyButton";

function conditionText(r: RuleRecord): string {
  if (r.expression !== null) return r.expression;
  return (r.conditions ?? [])
    .map((c) => {
      const value = Array.isArray(c.value)
        ? c.value.join(", ")
        : typeof c.value === "boolean"
          ? c.value
            ? "yes"
            : "no"
          : String(c.value);
      return `${CONDITION_FIELDS[c.field as keyof typeof CONDITION_FIELDS]?.fact ?? c.field} ${OP_LABEL[c.op]} ${value}`;
    })
    .join(" and ");
}

function StatsLine({
  stats,
  days,
  pending,
  failed,
}: {
  stats: RuleQuality | undefined;
  days: number;
  pending: boolean;
  failed: boolean;
}) {
  if (pending) return <span className="muted">Measuring…</span>;
  // A failed read is not "no measures": the list says why once, above the rows (RulesView's ReadFailed: Retry when
  // reading again may work, the service's words when it cannot).
  if (failed) return <span className="muted">Measures not read</span>;
  if (!stats) return <span className="muted">No measures yet</span>;
  const labelled = stats.labelledFraud + stats.labelledLegitimate;
  return (
    <span data-testid="rule-stats">
      Matched <strong>{stats.matched}</strong> in {days} days
      {stats.mode === "shadow" && stats.matched > 0 ? ` · would have changed ${stats.differed}` : ""} · precision{" "}
      <strong data-testid="rule-precision">{percent(stats.precision)}</strong>
      {labelled ? ` (${labelled} labelled)` : " (no labelled matches)"}
    </span>
  );
}

export function RuleRow({
  rule: r,
  position,
  count,
  stats,
  statsDays,
  statsPending,
  statsFailed,
  focusMove,
  focusEdit,
  onEditFocused,
  onEdit,
  onMove,
  onChange,
  onDelete,
}: {
  rule: RuleRecord;
  position: number;
  count: number;
  stats: RuleQuality | undefined;
  statsDays: number;
  statsPending: boolean;
  /** The measures' read failed: the row says they were not read rather than "No measures yet". */
  statsFailed: boolean;
  /** Set on the rule just moved: keyboard focus follows it to its new place (on the button of the same direction when it is still usable). */
  focusMove?: -1 | 1;
  /** Set on the rule whose editor just closed: keyboard focus comes back to its "Edit or test" button. */
  focusEdit?: boolean;
  onEditFocused?: () => void;
  onEdit: () => void;
  onMove: (by: -1 | 1) => void;
  onChange: (changes: { enabled?: boolean; mode?: "active" | "shadow" }) => void;
  onDelete: () => Promise<unknown>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const upRef = useRef<HTMLButtonElement>(null);
  const downRef = useRef<HTMLButtonElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!focusMove) return;
    const up = focusMove === -1 ? position > 1 : position === count;
    (up ? upRef : downRef).current?.focus();
  }, [focusMove, position, count]);
  useEffect(() => {
    if (!focusEdit) return;
    editRef.current?.focus();
    onEditFocused?.();
  }, [focusEdit, onEditFocused]);
  return (
    <li
      className={`rule-row${r.enabled ? "" : " rule-off"}`}
      data-testid="rule-row"
      data-rule-id={r.id}
      data-mode={r.mode}
      data-enabled={r.enabled}
    >
      <div className="rule-summary">
        <span className="rule-position" aria-label={`Position ${position}`}>
          {position}
        </span>
        <strong className="rule-name" data-testid="rule-row-name">
          {r.name}
        </strong>
        <span className={`badge decision-${r.action}`}>{r.action}</span>
        <span
          className={`badge ${r.mode === "shadow" ? "badge-shadow" : "badge-active"}`}
          data-testid="rule-mode"
          title={
            r.mode === "shadow"
              ? "Evaluated and recorded, never changes a decision"
              : "When it matches (and no rule above it does), its action is the decision"
          }
        >
          {r.mode === "shadow" ? "shadow: only records" : "enforced: decides"}
        </span>
        {r.enabled ? null : (
          <span className="badge badge-expired" data-testid="rule-disabled">
            disabled
          </span>
        )}
      </div>
      <p className="rule-test">
        <span className="muted">{r.expression !== null ? "Expression " : "When "}</span>
        <code>{conditionText(r)}</code>
      </p>
      <p className="rule-stats small">
        <StatsLine stats={stats} days={statsDays} pending={statsPending} failed={statsFailed} />
      </p>
      <div className="rule-controls">
        <Switch checked={r.enabled} onChange={(on) => onChange({ enabled: on })} label="Enabled" testId="row-enabled" />
        <Switch
          checked={r.mode === "shadow"}
          onChange={(on) => onChange({ mode: on ? "shadow" : "active" })}
          label="Shadow"
          testId="row-shadow"
        />
        <span className="rule-buttons">
          <button
            ref={upRef}
            type="button"
            className="btn"
            onClick={() => onMove(-1)}
            disabled={position === 1}
            aria-label={`Move “${r.name}” up`}
          >
            ↑ Up
          </button>
          <button
            ref={downRef}
            type="button"
            className="btn"
            onClick={() => onMove(1)}
            disabled={position === count}
            aria-label={`Move “${r.name}” down`}
          >
            ↓ Down
          </button>
          <button ref={editRef} type="button" className="btn" onClick={onEdit} aria-label={`Edit or test “${r.name}”`}>
            Edit or test
          </button>
          {confirming ? null : (
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => setConfirming(true)}
              aria-label={`Delete “${r.name}”`}
              data-confirm-trigger
            >
              Delete
            </button>
          )}
        </span>
      </div>
      {confirming ? (
        <ConfirmQuestion
          label={`Delete “${r.name}”`}
          testId="rule-confirm"
          question={<span>Delete “{r.name}”? Assessments stop using it at once; this cannot be undone.</span>}
          onCancel={() => setConfirming(false)}
        >
          <BusyButton
            type="button"
            className="btn btn-danger"
            busy={deleting}
            busyLabel="Deleting…"
            onClick={() => {
              setDeleting(true);
              onDelete().catch(() => setDeleting(false));
            }}
          >
            Yes, delete
          </BusyButton>
        </ConfirmQuestion>
      ) : null}
    </li>
  );
}
