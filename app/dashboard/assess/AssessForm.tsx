"use client";
// The fields of POST /assess with a label, a hint and an example each; only event and IP are required.
import { useState } from "react";

export type AssessFields = Record<(typeof FIELDS)[number]["name"] | "event" | "status", string>;

const FIELDS = [
  {
    name: "ip",
    label: "IP address",
    hint: "The end user's address, not your server's",
    example: "203.0.113.7",
    required: true,
  },
  {
    name: "email",
    label: "Email",
    hint: "Checked for disposable, free and role addresses",
    example: "alex@example.com",
  },
  {
    name: "user_agent",
    label: "User-Agent",
    hint: "The browser's User-Agent header",
    example: "Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/120.0",
  },
  { name: "device_id", label: "Device id", hint: "A stable id from your client", example: "dev_8f2c" },
  { name: "user_id", label: "User id", hint: "Your id of the account", example: "user_42" },
  { name: "billing_country", label: "Billing country", hint: "Two letters, e.g. DE", example: "DE" },
  { name: "amount", label: "Amount", hint: "For checkouts, in major units", example: "249.00" },
  { name: "currency", label: "Currency", hint: "Three letters, e.g. EUR", example: "EUR" },
] as const;

const EVENTS = ["signup", "login", "checkout", "form", "api"] as const;

/** Whether a login or signup attempt succeeded; failed attempts feed the account's failure counters. */
const ATTEMPT_EVENTS = new Set(["login", "signup"]);

const EMPTY: AssessFields = {
  event: "signup",
  status: "succeeded",
  ip: "",
  email: "",
  user_agent: "",
  device_id: "",
  user_id: "",
  billing_country: "",
  amount: "",
  currency: "",
};

/** The request body, or a sentence saying what to fix (the server validates again). */
export function toAssessRequest(f: AssessFields) {
  const body: Record<string, unknown> = { event: f.event, ip: f.ip.trim() };
  if (ATTEMPT_EVENTS.has(f.event) && f.status === "failed") body.status = "failed";
  for (const k of ["email", "user_agent", "device_id", "user_id", "billing_country", "currency"] as const) {
    if (f[k].trim()) body[k] = f[k].trim();
  }
  if (f.amount.trim()) {
    const n = Number(f.amount.trim());
    if (!Number.isFinite(n) || n < 0) return "Amount must be a number such as 249.00.";
    body.amount = n;
  }
  return body as { event: (typeof EVENTS)[number]; ip: string };
}

export function AssessForm({
  cost,
  pending,
  onRun,
}: {
  cost: string;
  pending: boolean;
  onRun: (f: AssessFields) => void;
}) {
  const [f, setF] = useState<AssessFields>(EMPTY);
  const set = (k: keyof AssessFields, v: string) => setF((old) => ({ ...old, [k]: v }));
  return (
    <form
      className="card"
      data-testid="assess-form"
      onSubmit={(e) => {
        e.preventDefault();
        onRun(f);
      }}
    >
      <div className="field-grid">
        <label>
          Event
          <select name="event" value={f.event} onChange={(e) => set("event", e.target.value)}>
            {EVENTS.map((ev) => (
              <option key={ev} value={ev}>
                {ev}
              </option>
            ))}
          </select>
          <span className="hint">What the user is doing</span>
        </label>
        {ATTEMPT_EVENTS.has(f.event) ? (
          <label>
            Attempt
            <select name="status" value={f.status} onChange={(e) => set("status", e.target.value)}>
              <option value="succeeded">succeeded</option>
              <option value="failed">failed (wrong password, refused)</option>
            </select>
            <span className="hint">Failed attempts count towards password guessing and credential stuffing</span>
          </label>
        ) : null}
        {FIELDS.map((field) => (
          <label key={field.name}>
            {field.label}
            {"required" in field ? " (required)" : ""}
            <input
              name={field.name}
              value={f[field.name]}
              onChange={(e) => set(field.name, e.target.value)}
              placeholder={field.example}
              required={"required" in field}
              inputMode={field.name === "amount" ? "decimal" : undefined}
            />
            <span className="hint">{field.hint}</span>
          </label>
        ))}
      </div>
      <div className="form-row">
        <button type="submit" className="btn btn-primary" disabled={pending} data-testid="run-assessment">
          Assess
        </button>
        <span className="cost" data-testid="assess-cost">
          Costs {cost} of this month&apos;s allowance.
        </span>
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() =>
            setF({ ...EMPTY, ...Object.fromEntries(FIELDS.map((x) => [x.name, x.example])), event: "checkout" })
          }
        >
          Fill in an example
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => set("user_agent", navigator.userAgent)}>
          Use this browser&apos;s User-Agent
        </button>
      </div>
    </form>
  );
}
