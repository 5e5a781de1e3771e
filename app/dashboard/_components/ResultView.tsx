"use client";
// A readable view of any lookup result: nested objects as key/value tables labelled in words (answers/detail-words.ts),
// arrays as numbered rows, yes/no coloured by what the field means (answers/meaning.ts), text for operators left out
// (answers/user-text.ts), plus the raw JSON on demand. An empty field is left out, unless its object says why it is
// empty (a `reason`, or `<field>Reason`): then it reads "not known" beside that reason, which is information.
import { useState } from "react";
import { fieldLabel, valueWords } from "./answers/detail-words";
import { meaningOf } from "./answers/meaning";
import { forUsers, forUsersDeep } from "./answers/user-text";

const MAX_DEPTH = 8;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const isEmpty = (v: unknown) => v === null || v === undefined;

/** Whether the object says why its field `key` is empty: a reason of its own, or the object's. */
function explained(obj: Record<string, unknown>, key: string): boolean {
  const said = (v: unknown) => typeof v === "string" && v.trim() !== "";
  return said(obj[`${key}Reason`]) || (key !== "reason" && said(obj.reason));
}

function Scalar({ value, field }: { value: unknown; field?: string }) {
  if (value === null || value === undefined) return <span className="null">not known</span>;
  if (typeof value === "boolean") {
    const meaning = meaningOf(field, value);
    return (
      <span className={`bool bool-${meaning}`} data-meaning={meaning}>
        {value ? "yes" : "no"}
      </span>
    );
  }
  if (typeof value === "number") return <span className="num">{value}</span>;
  const s = valueWords(forUsers(String(value)));
  if (/^https?:\/\/\S+$/.test(s)) {
    return (
      <a href={s} rel="noreferrer noopener" target="_blank">
        {s}
      </a>
    );
  }
  return <span className="str">{s}</span>;
}

function Node({ value, depth, field }: { value: unknown; depth: number; field?: string }) {
  if (depth > MAX_DEPTH) return <code>{JSON.stringify(value)}</code>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>;
    return (
      <ol className="rv-list">
        {value.map((item, i) => (
          <li key={i}>
            <Node value={item} depth={depth + 1} field={field} />
          </li>
        ))}
      </ol>
    );
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([k, v]) => !isEmpty(v) || explained(value, k));
    if (entries.length === 0) return <span className="muted">none</span>;
    return (
      <table className="rv-table">
        <tbody>
          {entries.map(([k, v]) => (
            <tr key={k} data-key={k}>
              <th scope="row">{fieldLabel(k)}</th>
              <td>
                {/* `{ value, reason }` pairs take their meaning from the field that holds them (torExit.value). */}
                <Node value={v} depth={depth + 1} field={k === "value" ? field : k} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  return <Scalar value={value} field={field} />;
}

/** The whole structure as nested tables, without a title or toggles. */
export function StructureTree({ value }: { value: unknown }) {
  return <Node value={value} depth={0} />;
}

export function RawJson({ value }: { value: unknown }) {
  return (
    <pre className="raw-json" tabIndex={0}>
      {JSON.stringify(forUsersDeep(value), null, 2)}
    </pre>
  );
}

export function ResultView({ value, title }: { value: unknown; title?: string }) {
  const [raw, setRaw] = useState(false);
  return (
    <section className="result-view" data-testid="result-view">
      <div className="row-between">
        {title ? <h3>{title}</h3> : <span />}
        <label className="small inline">
          <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} /> Raw JSON
        </label>
      </div>
      {raw ? <RawJson value={value} /> : <StructureTree value={value} />}
    </section>
  );
}
