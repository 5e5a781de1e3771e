"use client";
// The inputs of one lookup, as its OpenAPI description lists them: path and query parameters as fields, a JSON
// body (prefilled with the required properties) when the lookup takes one.
import { useState } from "react";
import type { LookupEntry } from "./catalog-types";

export function LookupForm({ entry, running, onRun }: { entry: LookupEntry; running: boolean; onRun: (values: Record<string, string>, body: string) => void }) {
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(entry.fields.map((f) => [f.name, f.defaultValue ?? ""])),
  );
  const [body, setBody] = useState(entry.bodyTemplate ?? "");
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onRun(values, body);
      }}
    >
      <div className="form-row">
        {entry.fields.map((f) => (
          <label key={f.name} title={f.description ?? undefined}>
            <span>
              {f.name} <span className="muted small">({f.in}, {f.type}{f.required ? ", required" : ""})</span>
            </span>
            {f.enumValues ? (
              <select name={f.name} value={values[f.name] ?? ""} onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}>
                {f.required ? null : <option value="">—</option>}
                {f.enumValues.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            ) : (
              <input
                name={f.name}
                value={values[f.name] ?? ""}
                required={f.required}
                placeholder={f.description ?? f.name}
                onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
              />
            )}
          </label>
        ))}
      </div>
      {entry.bodyTemplate !== null ? (
        <label style={{ marginTop: "0.75rem" }}>
          <span>
            JSON body{" "}
            <span className="muted small">
              {entry.bodyFields.map((f) => `${f.name}${f.required ? "" : "?"}: ${f.type}`).join(", ")}
            </span>
          </span>
          <textarea name="body" value={body} onChange={(e) => setBody(e.target.value)} spellCheck={false} />
        </label>
      ) : null}
      <div className="row" style={{ marginTop: "0.75rem" }}>
        <button type="submit" className="btn btn-primary" disabled={running} data-testid="run-lookup">
          {running ? "Running…" : `Run lookup (${entry.cost})`}
        </button>
      </div>
    </form>
  );
}
