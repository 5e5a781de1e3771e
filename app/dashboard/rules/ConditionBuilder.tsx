"use client";
// The condition rows of a rule: field, test and value, all of which must hold. Each field shows what it means from
// the one fact table (server/rules/facts.ts) that the API documentation and the evaluator read, and the identifier
// it is in an expression, so a user can move from conditions to an expression in the same words. A row the server
// refused is marked and described by what is wrong with it, and the first such row's value takes the focus.
import {
  CONDITION_FIELDS,
  MAX_CONDITIONS,
  type ConditionField,
  type ConditionOp,
} from "../../../server/rules/conditions";
import { FACTS } from "../../../server/rules/facts";
import { DocText } from "../_components/DocText";
import { useFieldProblems } from "../_components/field-problem";
import { FIELD_NAMES, isListOp, newCondition, OP_LABEL, opsFor, type ConditionDraft } from "./rule-draft";

const PLACEHOLDER: Record<string, string> = {
  country: "DE",
  ip: "203.0.113.7",
  number: "500",
  string: "text",
};

function placeholder(c: ConditionDraft): string {
  if (c.op === "cidr") return "203.0.113.0/24, 2001:db8::/32";
  const kind = CONDITION_FIELDS[c.field].kind;
  const one =
    c.field === "event"
      ? "checkout"
      : c.field === "currency"
        ? "EUR"
        : c.field === "email_domain"
          ? "example.com"
          : (PLACEHOLDER[kind] ?? "");
  return isListOp(c.op) ? `${one}, …` : one;
}

export function ConditionBuilder({
  conditions,
  errors,
  focusOn,
  onChange,
}: {
  conditions: ConditionDraft[];
  errors: Record<number, string>;
  /** Changes when the errors are a new refusal: the first row with one then takes the focus (field-problem.ts). */
  focusOn?: unknown;
  onChange: (next: ConditionDraft[]) => void;
}) {
  const { problemId, fieldProps } = useFieldProblems(errors, focusOn);
  const set = (i: number, c: Partial<ConditionDraft>) =>
    onChange(conditions.map((old, j) => (j === i ? { ...old, ...c } : old)));
  function setField(i: number, field: ConditionField) {
    const ops = opsFor(field);
    const op = ops.includes(conditions[i]!.op) ? conditions[i]!.op : ops[0]!;
    set(i, { field, op, value: CONDITION_FIELDS[field].kind === "boolean" ? "true" : conditions[i]!.value });
  }

  return (
    <fieldset className="plain-fieldset condition-builder" data-testid="condition-builder">
      <legend>Conditions (all must hold)</legend>
      <ol className="condition-list">
        {conditions.map((c, i) => {
          const def = CONDITION_FIELDS[c.field];
          const fact = FACTS[def.fact];
          const err = errors[i];
          const meaningId = `condition-${i}-meaning`;
          return (
            <li key={i} className="condition-row" data-testid="condition-row">
              <div className="condition-inputs">
                <label>
                  Field
                  <select
                    value={c.field}
                    onChange={(e) => setField(i, e.target.value as ConditionField)}
                    aria-describedby={meaningId}
                    data-testid="condition-field"
                  >
                    {FIELD_NAMES.map((f) => (
                      <option key={f} value={f}>
                        {f.replace(/_/g, " ")}
                      </option>
                    ))}
                  </select>
                </label>
                <label>
                  Test
                  <select
                    value={c.op}
                    onChange={(e) => set(i, { op: e.target.value as ConditionOp })}
                    data-testid="condition-op"
                  >
                    {opsFor(c.field).map((op) => (
                      <option key={op} value={op}>
                        {OP_LABEL[op]}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="grow">
                  Value{isListOp(c.op) ? " (separate with commas)" : ""}
                  {def.kind === "boolean" ? (
                    <select
                      value={c.value}
                      onChange={(e) => set(i, { value: e.target.value })}
                      {...fieldProps(String(i))}
                      data-testid="condition-value"
                    >
                      <option value="true">yes</option>
                      <option value="false">no</option>
                    </select>
                  ) : (
                    <input
                      value={c.value}
                      onChange={(e) => set(i, { value: e.target.value })}
                      placeholder={placeholder(c)}
                      inputMode={def.kind === "number" && !isListOp(c.op) ? "decimal" : undefined}
                      {...fieldProps(String(i))}
                      data-testid="condition-value"
                    />
                  )}
                </label>
                <button
                  type="button"
                  className="btn btn-ghost"
                  onClick={() => onChange(conditions.filter((_, j) => j !== i))}
                  disabled={conditions.length === 1}
                  aria-label={`Remove condition ${i + 1}`}
                >
                  Remove
                </button>
              </div>
              <p className="hint field-meaning" id={meaningId} data-testid="field-meaning">
                <code>{def.fact}</code> ({fact.type}): <DocText text={fact.doc} />
              </p>
              {err ? (
                <p className="error" id={problemId(String(i))} role="alert" data-testid="condition-error">
                  {err}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        className="btn"
        onClick={() => onChange([...conditions, newCondition()])}
        disabled={conditions.length >= MAX_CONDITIONS}
      >
        Add a condition
      </button>
    </fieldset>
  );
}
