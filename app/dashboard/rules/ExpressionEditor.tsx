"use client";
// The expression form of a rule (CEL), with the server's verdict on it shown where it points: the line and column,
// the line itself with a caret under the column, and what to change. The identifier list is the one fact table
// (server/rules/facts.ts) the evaluator and the API documentation read. A refused expression is marked and described
// by its verdict (keeping its help), and takes the focus when the refusal comes (field-problem.ts).
import { useId } from "react";
import { FACT_NAMES, FACTS } from "../../../server/rules/facts";
import { DocText } from "../_components/DocText";
import { useFieldProblems } from "../_components/field-problem";
import type { ExpressionError } from "./rule-draft";

const EXAMPLES = [
  "ip.country != billing_country && amount > 500",
  'velocity.device_users_1h > 3 || "email_disposable" in signals',
  'ip.address.inCidr("203.0.113.0/24")',
];

export function ExpressionEditor({
  value,
  error,
  focusOn,
  onChange,
}: {
  value: string;
  error: ExpressionError | null;
  /** Changes when the error is a new refusal: the expression then takes the focus. */
  focusOn?: unknown;
  onChange: (v: string) => void;
}) {
  const line = error ? (value.split("\n")[error.line - 1] ?? "") : "";
  const helpId = `${useId()}-help`;
  const { problemId, fieldProps } = useFieldProblems({ expression: error?.message }, focusOn);
  return (
    <div className="expression-editor">
      <label>
        Expression (true when the rule matches)
        <textarea
          value={value}
          onChange={(e) => onChange(e.target.value)}
          spellCheck={false}
          rows={4}
          maxLength={4000}
          placeholder={EXAMPLES[0]}
          {...fieldProps("expression", helpId)}
          data-testid="expression-input"
        />
      </label>
      {error ? (
        <div
          className="expression-error"
          id={problemId("expression")}
          role="alert"
          data-testid="expression-error"
          data-line={error.line}
          data-column={error.column}
        >
          <p className="error">
            <strong>
              Line {error.line}, column {error.column}:
            </strong>{" "}
            {error.message}
          </p>
          {error.checker ? (
            <details className="small" data-testid="expression-checker-words">
              <summary>What the expression checker said</summary>
              <code>{error.checker}</code>
            </details>
          ) : null}
          <pre className="expression-caret" aria-hidden="true">
            {line}
            {"\n"}
            {" ".repeat(Math.max(0, error.column - 1))}^
          </pre>
        </div>
      ) : null}
      <p className="hint" id={helpId}>
        Common Expression Language: <code>== != &lt; &gt; in && || !</code>, <code>contains()</code>,{" "}
        <code>startsWith()</code>, <code>ip.address.inCidr(&quot;…&quot;)</code>, <code>has(email.address)</code>. For
        example <code>{EXAMPLES[1]}</code>. A fact that is unknown for an assessment makes any test on it false.
      </p>
      <details className="identifier-list">
        <summary>Identifiers ({FACT_NAMES.length})</summary>
        <dl className="facts">
          {FACT_NAMES.map((n) => (
            <div className="fact" key={n}>
              <dt>
                <code>{n}</code>
              </dt>
              <dd>
                <span className="muted">{FACTS[n].type}</span> · <DocText text={FACTS[n].doc} />
              </dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
}
