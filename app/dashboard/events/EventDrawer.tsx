"use client";
// One event in full, opened from the events list as a dialog: its indexed fields, for an account change who made it
// and what changed (before and after), for a monitor alert the check's state before → after in words, and the whole
// record on request (wrapped inside the panel). A modal dialog: Tab and Shift+Tab go round its own controls, never to
// the page behind it; Escape closes it and focus goes back.
import Link from "next/link";
import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { formatUtc } from "../_components/format";
import {
  actorText,
  changedFields,
  changeValueText,
  eventSummary,
  eventTitle,
  monitorChange,
  monitorText,
  targetText,
  type EventRecord,
  type KeyNames,
} from "./describe";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** Keeps Tab inside the dialog: from its last control to its first, and Shift+Tab from its first (or its heading) to its last. */
function trapTab(k: ReactKeyboardEvent<HTMLElement>) {
  if (k.key !== "Tab") return;
  const controls = [...k.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent);
  if (controls.length === 0) return k.preventDefault();
  const first = controls[0];
  const last = controls[controls.length - 1];
  const at = document.activeElement;
  const outside = !controls.includes(at as HTMLElement);
  if (k.shiftKey && (at === first || outside)) {
    k.preventDefault();
    last.focus();
  } else if (!k.shiftKey && at === last) {
    k.preventDefault();
    first.focus();
  }
}

export function EventDrawer({
  event: e,
  keys,
  onClose,
}: {
  event: EventRecord;
  /** The workspace's API keys by id, to say who made a change by a key's name. */
  keys?: KeyNames;
  onClose: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [raw, setRaw] = useState(false);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    heading.current?.focus();
    const onKey = (k: KeyboardEvent) => {
      if (k.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => {
      window.removeEventListener("keydown", onKey);
      opener?.focus();
    };
  }, [e.id, onClose]);
  const d = (e.data ?? {}) as Record<string, unknown>;
  const audit = e.type.startsWith("audit.");
  const changes = audit ? changedFields(d.before, d.after) : [];
  const monitor = e.type.startsWith("monitor.") ? (d.monitor as { id?: string } | undefined) : undefined;
  const stateChange = e.type.startsWith("monitor.") ? monitorChange(e.type, d) : null;
  const fields: [string, string | null][] = [
    ["When", formatUtc(e.created_at)],
    ["Request id", e.requestId],
    ["IP address", e.ip],
    ["Email", e.email],
    ["Domain", e.domain],
    ["Rule", e.rule],
  ];
  return (
    <aside
      className="event-drawer"
      role="dialog"
      aria-modal="true"
      aria-labelledby="event-drawer-title"
      data-testid="event-drawer"
      onKeyDown={trapTab}
    >
      <div className="row-between">
        <h2 id="event-drawer-title" tabIndex={-1} ref={heading}>
          {eventTitle(e.type)}
        </h2>
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="small">{eventSummary(e, keys)}</p>
      <table className="rv-table">
        <tbody>
          {audit ? (
            <>
              <tr>
                <th>Changed by</th>
                <td data-testid="event-actor">{actorText(d.actor, e.actor, keys)}</td>
              </tr>
              {targetText(d.target) ? (
                <tr>
                  <th>What</th>
                  <td>{targetText(d.target)}</td>
                </tr>
              ) : null}
              {typeof d.user_agent === "string" ? (
                <tr>
                  <th>Browser or client</th>
                  <td className="break">{d.user_agent}</td>
                </tr>
              ) : null}
            </>
          ) : null}
          {monitor ? (
            <tr>
              <th>Monitor</th>
              <td className="break">
                {monitor.id ? <Link href={`/dashboard/monitors/${monitor.id}`}>{monitorText(d)}</Link> : monitorText(d)}
              </td>
            </tr>
          ) : null}
          {fields
            .filter(([, v]) => v)
            .map(([k, v]) => (
              <tr key={k}>
                <th>{k}</th>
                <td className="break">{v}</td>
              </tr>
            ))}
        </tbody>
      </table>
      {audit && changes.length > 0 ? (
        <>
          <h3>Change</h3>
          <div className="table-scroll">
            <table className="list" data-testid="event-changes">
              <thead>
                <tr>
                  <th>Field</th>
                  <th>Before</th>
                  <th>After</th>
                </tr>
              </thead>
              <tbody>
                {changes.map((c) => (
                  <tr key={c.field}>
                    <td>{c.field.replace(/_/g, " ")}</td>
                    <td className="break">{changeValueText(c.field, c.before)}</td>
                    <td className="break">{changeValueText(c.field, c.after)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      {stateChange ? (
        <>
          <h3>Change</h3>
          <dl className="event-change" data-testid="event-state-change">
            <div>
              <dt>Before</dt>
              <dd>{stateChange.before}</dd>
            </div>
            <div aria-hidden="true" className="event-change-arrow">
              →
            </div>
            <div>
              <dt>After</dt>
              <dd>{stateChange.after}</dd>
            </div>
          </dl>
        </>
      ) : null}
      <button type="button" className="link-button small" aria-expanded={raw} onClick={() => setRaw(!raw)}>
        {raw ? "Hide the record" : "Show the whole record"}
      </button>
      {raw ? (
        <pre className="raw-json" data-testid="event-raw">
          {JSON.stringify(e, null, 2)}
        </pre>
      ) : null}
    </aside>
  );
}
