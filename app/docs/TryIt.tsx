"use client";
// "Try it": sends the request from this browser to /v1 with the key the reader pastes (kept in memory only, see
// key-store.ts) and shows the status, the quota headers and the JSON answer.
import { useState } from "react";
import { setPastedKey, usePastedKey } from "./key-store";

export interface TryParam {
  name: string;
  in: string;
  required: boolean;
  example: string;
}

type Answer = { status: number; headers: [string, string][]; body: string } | { failed: string };

export function TryIt({
  id,
  method,
  path,
  params,
  bodyExample,
  needsKey,
}: {
  id: string;
  method: string;
  path: string;
  params: TryParam[];
  bodyExample: string | null;
  needsKey: boolean;
}) {
  const key = usePastedKey();
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(params.map((p) => [p.name, p.required ? p.example : ""])),
  );
  const [body, setBody] = useState(bodyExample ?? "");
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);

  async function send() {
    let url = path;
    const query = new URLSearchParams();
    for (const p of params) {
      const v = values[p.name] ?? "";
      if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(v));
      else if (p.in === "query" && v !== "") query.set(p.name, v);
    }
    const headers: Record<string, string> = {};
    if (key.trim()) headers.Authorization = `Bearer ${key.trim()}`;
    if (bodyExample !== null) headers["Content-Type"] = "application/json";
    setSending(true);
    setAnswer(null);
    try {
      const res = await fetch(`/v1${url}${query.size ? `?${query}` : ""}`, {
        method: method.toUpperCase(),
        headers,
        body: bodyExample !== null ? body : undefined,
      });
      const text = await res.text();
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON (CSV, plain text): shown as it came.
      }
      const shown = [...res.headers.entries()].filter(([h]) =>
        /^(x-service-|retry-after|x-request-id|content-type)/i.test(h),
      );
      setAnswer({ status: res.status, headers: shown, body: pretty });
    } catch (err) {
      setAnswer({ failed: (err as Error).message });
    } finally {
      setSending(false);
    }
  }

  return (
    <details className="try-it" data-testid="try-it">
      <summary>Try it</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        {needsKey ? (
          <label>
            API key <span className="muted small">(kept in this tab&apos;s memory only, never stored)</span>
            <input
              type="password"
              autoComplete="off"
              value={key}
              onChange={(e) => setPastedKey(e.target.value)}
              placeholder="svc_live_…"
              data-testid="try-key"
            />
          </label>
        ) : null}
        {params.map((p) => (
          <label key={`${p.in}-${p.name}`}>
            {p.name}{" "}
            <span className="muted small">
              ({p.in}
              {p.required ? ", required" : ""})
            </span>
            <input
              value={values[p.name] ?? ""}
              required={p.required}
              placeholder={p.example}
              onChange={(e) => setValues({ ...values, [p.name]: e.target.value })}
            />
          </label>
        ))}
        {bodyExample !== null ? (
          <label>
            Request body (JSON)
            <textarea
              value={body}
              onChange={(e) => setBody(e.target.value)}
              rows={Math.min(16, body.split("\n").length + 1)}
              spellCheck={false}
            />
          </label>
        ) : null}
        <button type="submit" className="try-send" disabled={sending} id={`${id}-send`}>
          {sending ? "Sending…" : `Send ${method.toUpperCase()} request`}
        </button>
      </form>
      {answer ? (
        "failed" in answer ? (
          <p className="try-failed" role="alert">
            The request did not complete: {answer.failed}
          </p>
        ) : (
          <div data-testid="try-answer" aria-live="polite">
            <p>
              Status <strong data-testid="try-status">{answer.status}</strong>
            </p>
            {answer.headers.length ? (
              <p className="small muted">
                {answer.headers.map(([h, v]) => (
                  <span key={h} className="try-header">
                    <code>{h}</code>: {v}
                  </span>
                ))}
              </p>
            ) : null}
            <pre tabIndex={0}>{answer.body}</pre>
          </div>
        )
      ) : null}
    </details>
  );
}
