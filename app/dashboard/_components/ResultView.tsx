"use client";
// A readable view of any lookup result: nested objects as key/value tables, arrays as numbered rows, nulls shown
// as "null" (never hidden, since a null beside its `reason` is information), plus the raw JSON on demand.
import { useState } from "react";

const MAX_DEPTH = 8;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function Scalar({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="null">null</span>;
  if (typeof value === "boolean") return <span className={value ? "bool-true" : "bool-false"}>{String(value)}</span>;
  if (typeof value === "number") return <span className="num">{value}</span>;
  const s = String(value);
  if (/^https?:\/\/\S+$/.test(s)) {
    return (
      <a href={s} rel="noreferrer noopener" target="_blank">
        {s}
      </a>
    );
  }
  return <span className="str">{s}</span>;
}

function Node({ value, depth }: { value: unknown; depth: number }) {
  if (depth > MAX_DEPTH) return <code>{JSON.stringify(value)}</code>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">(empty list)</span>;
    return (
      <ol className="rv-list">
        {value.map((item, i) => (
          <li key={i}>
            <Node value={item} depth={depth + 1} />
          </li>
        ))}
      </ol>
    );
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return <span className="muted">(empty)</span>;
    return (
      <table className="rv-table">
        <tbody>
          {entries.map(([k, v]) => (
            <tr key={k} data-key={k}>
              <th scope="row">{k}</th>
              <td>
                <Node value={v} depth={depth + 1} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  return <Scalar value={value} />;
}

export function ResultView({ value, title }: { value: unknown; title?: string }) {
  const [raw, setRaw] = useState(false);
  return (
    <section className="result-view" data-testid="result-view">
      <div className="row-between">
        {title ? <h3>{title}</h3> : <span />}
        <label className="small">
          <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} /> Raw JSON
        </label>
      </div>
      {raw ? <pre className="raw-json">{JSON.stringify(value, null, 2)}</pre> : <Node value={value} depth={0} />}
    </section>
  );
}
