"use client";
// The inputs of one lookup, as its OpenAPI description lists them: path and query parameters as labelled fields
// with an example each, a JSON body (prefilled with examples for the required properties) when the lookup takes
// one, and "Copy as curl" for the same request from a terminal.
import { useEffect, useState } from "react";
import { CopyButton } from "../_components/CopyButton";
import { Prose } from "../_components/answers/parts";
import type { useRefusalAtField } from "../_components/field-problem";
import type { LookupEntry } from "./catalog-types";
import { curlCommand } from "./curl";
import { fieldLabel, fieldValueFromPaste } from "./field-text";
import { BusyButton } from "../_components/BusyButton";

type FieldProps = ReturnType<typeof useRefusalAtField>["fieldProps"];

/** The JSON body's box by a name no API field has: a body the page refuses (not JSON) is about it. */
export const BODY_BOX = "request body";

export function LookupForm({
  entry,
  running,
  onRun,
  refused = false,
  fieldProps = (_names, hintId) => (hintId ? { "aria-describedby": hintId } : {}),
}: {
  entry: LookupEntry;
  running: boolean;
  onRun: (values: Record<string, string>, body: string) => void;
  /** The plan lacks this lookup's capability: the run button is disabled (copying the curl still works). */
  refused?: boolean;
  /** Marks the field the last run's refusal is about (field-problem.ts): by the API's field names it sends. */
  fieldProps?: (names: string | string[], hintId?: string) => Partial<ReturnType<FieldProps>>;
}) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(entry.fields.map((f) => [f.name, f.defaultValue ?? ""])),
  );
  const [body, setBody] = useState(entry.bodyTemplate ?? "");
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  const curl = curlCommand(origin, entry, values, body);
  const id = (name: string) => `lf-${entry.procedure.replace(/\W/g, "-")}-${name}`;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        // A pasted URL in a domain or host field is looked up as its host, and the field shows what was looked up.
        const cleaned = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, fieldValueFromPaste(k, v)]));
        setValues(cleaned);
        onRun(cleaned, body);
      }}
    >
      <div className="field-grid">
        {entry.fields.map((f) => (
          <div key={f.name} className="field">
            <label htmlFor={id(f.name)}>
              {fieldLabel(f.name)}
              {f.required ? <span className="req"> (required)</span> : null}
            </label>
            {f.enumValues ? (
              <select
                id={id(f.name)}
                name={f.name}
                value={values[f.name] ?? ""}
                onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
                {...fieldProps(f.name)}
              >
                {f.required ? null : <option value="">Any</option>}
                {f.enumValues.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id(f.name)}
                name={f.name}
                value={values[f.name] ?? ""}
                required={f.required}
                placeholder={f.example ? `e.g. ${f.example}` : undefined}
                onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
                {...fieldProps(f.name, f.description || f.example ? `${id(f.name)}-hint` : undefined)}
              />
            )}
            {f.description || f.example ? (
              <p className="hint" id={`${id(f.name)}-hint`}>
                {f.description ? <Prose text={f.description} /> : null}
                {f.description && f.example ? (/[.!?]$/.test(f.description) ? " " : ". ") : null}
                {f.example ? (
                  <>
                    Example:{" "}
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setValues({ ...values, [f.name]: f.example ?? "" })}
                      data-testid="use-example"
                    >
                      {f.example}
                    </button>
                  </>
                ) : null}
              </p>
            ) : null}
          </div>
        ))}
      </div>
      {entry.bodyTemplate !== null ? (
        <div className="field">
          <label htmlFor={id("body")}>Request body (JSON)</label>
          <ul className="hint body-fields">
            {entry.bodyFields.map((f) => (
              <li key={f.name}>
                <code>{f.name}</code> {fieldLabel(f.name) !== f.name ? `(${fieldLabel(f.name).toLowerCase()})` : null}
                {f.required ? ", required" : ", optional"}
                {f.description ? (
                  <>
                    : <Prose text={f.description} />
                  </>
                ) : null}
              </li>
            ))}
          </ul>
          <textarea
            id={id("body")}
            name="body"
            value={body}
            onChange={(e) => setBody(e.target.value)}
            spellCheck={false}
            {...fieldProps([BODY_BOX, ...entry.bodyFields.map((f) => f.name)])}
          />
        </div>
      ) : null}
      <div className="row" style={{ marginTop: "0.75rem" }}>
        <BusyButton
          type="submit"
          className="btn btn-primary"
          disabled={refused}
          busy={running}
          busyLabel="Running…"
          data-testid="run-lookup"
        >
          {`Run lookup (${entry.cost})`}
        </BusyButton>
        <CopyButton text={curl} label="Copy as curl" />
      </div>
      <details className="curl-preview">
        <summary className="small">Show the curl command</summary>
        <pre className="raw-json" data-testid="curl-command" tabIndex={0}>
          {curl}
        </pre>
      </details>
    </form>
  );
}
