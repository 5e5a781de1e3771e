"use client";
// The fields of POST /assess with a label, a hint and an example each; only event and IP are required.
import { useState } from "react";
import { BusyButton } from "../_components/BusyButton";

export type AssessFields = Record<
  (typeof FIELDS)[number]["name"] | (typeof PAYMENT_FIELDS)[number]["name"] | "event" | "status" | "pay_status",
  string
>;

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
  {
    name: "phone",
    label: "Phone",
    hint: "E.164 (+447400123456), or national in the address's country",
    example: "+447400123456",
  },
  {
    name: "phone_country",
    // Neither label nor hint says "phone": the Phone field stays the one a label search for it finds.
    label: "Number's country",
    hint: "Two letters, for a national number; default the address's country",
    example: "GB",
  },
] as const;

/** The card attempt of a checkout or payment: never the card number, only its BIN and last four. */
const PAYMENT_FIELDS = [
  { name: "pay_bin", label: "Card BIN", hint: "The card's first 6 to 8 digits", example: "411111" },
  { name: "pay_last4", label: "Card last four", hint: "Its last 4 digits", example: "1111" },
  {
    name: "pay_fingerprint",
    label: "Card fingerprint",
    hint: "Your processor's card fingerprint (optional)",
    example: "fp_8Hq2",
  },
  { name: "pay_amount", label: "Payment amount", hint: "In minor units: 4999 for 49.99", example: "4999" },
  { name: "pay_currency", label: "Payment currency", hint: "Three letters", example: "EUR" },
  {
    name: "pay_decline_code",
    label: "Decline code",
    hint: "The processor's code, when declined (optional)",
    example: "card_declined",
  },
] as const;

const EVENTS = ["signup", "login", "checkout", "form", "api", "payment"] as const;
const PAYMENT_EVENTS = new Set(["checkout", "payment"]);

/** Whether a login or signup attempt succeeded; failed attempts feed the account's failure counters. */
const ATTEMPT_EVENTS = new Set(["login", "signup"]);

export const EMPTY: AssessFields = {
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
  phone: "",
  phone_country: "",
  pay_bin: "",
  pay_last4: "",
  pay_fingerprint: "",
  pay_amount: "",
  pay_currency: "",
  pay_status: "succeeded",
  pay_decline_code: "",
};

/** Each field of the request as the form labels it (the API's refusals name the request's fields). */
export const ASSESS_LABELS: Record<string, string> = {
  event: "Event",
  status: "Attempt",
  ...Object.fromEntries(FIELDS.map((f) => [f.name, f.label])),
  ...Object.fromEntries(PAYMENT_FIELDS.map((f) => [`payment.${f.name.replace(/^pay_/, "")}`, f.label])),
  payment: "The card attempt",
  "payment.status": "Payment status",
};

/**
 * The request body, or sentences saying what to fix, every field's problem at once (the server validates again). The
 * card's fields are checked as the API checks them (server/assessment/payment.ts), in the form's words.
 */
export function toAssessRequest(f: AssessFields) {
  const body: Record<string, unknown> = { event: f.event, ip: f.ip.trim() };
  const problems: string[] = [];
  if (ATTEMPT_EVENTS.has(f.event) && f.status === "failed") body.status = "failed";
  for (const k of [
    "email",
    "user_agent",
    "device_id",
    "user_id",
    "billing_country",
    "currency",
    "phone",
    "phone_country",
  ] as const) {
    if (f[k].trim()) body[k] = f[k].trim();
  }
  if (f.billing_country.trim() && !/^[A-Za-z]{2}$/.test(f.billing_country.trim()))
    problems.push("Billing country must be a two-letter country code such as DE.");
  if (f.phone_country.trim() && !/^[A-Za-z]{2}$/.test(f.phone_country.trim()))
    problems.push("Number's country must be a two-letter country code such as GB.");
  if (f.amount.trim()) {
    const n = Number(f.amount.trim());
    if (!Number.isFinite(n) || n < 0) problems.push("Amount must be a number such as 249.00.");
    else body.amount = n;
  }
  // A payment is sent once any of its card fields is filled in; the server checks each field again.
  const card = PAYMENT_FIELDS.some((p) => p.name !== "pay_decline_code" && f[p.name].trim());
  if (PAYMENT_EVENTS.has(f.event) && card) {
    const bin = f.pay_bin.trim();
    const amount = f.pay_amount.trim();
    const currency = f.pay_currency.trim();
    if (!/^\d{6,8}$/.test(bin))
      problems.push(
        bin.replace(/[\s-]/g, "").length > 8 && /^[\d\s-]+$/.test(bin)
          ? "Card BIN holds more digits than a BIN, like a full card number: enter only the card's first 6 to 8 digits."
          : "Card BIN must be the card's first 6 to 8 digits.",
      );
    if (!/^\d{4}$/.test(f.pay_last4.trim())) problems.push("Card last four must be the card's last 4 digits.");
    if (!amount) problems.push("Payment amount is required with a payment, in minor units such as 4999 for 49.99.");
    else if (!/^\d+$/.test(amount) || !Number.isSafeInteger(Number(amount)))
      problems.push("Payment amount must be a whole number of minor units, such as 4999 for 49.99.");
    if (!/^[A-Za-z]{3}$/.test(currency))
      problems.push(
        currency
          ? "Payment currency must be a three-letter code such as EUR."
          : "Payment currency is required with a payment: three letters such as EUR.",
      );
    body.payment = {
      bin,
      last4: f.pay_last4.trim(),
      ...(f.pay_fingerprint.trim() ? { fingerprint: f.pay_fingerprint.trim() } : {}),
      amount: Number(amount),
      currency,
      status: f.pay_status,
      ...(f.pay_status !== "succeeded" && f.pay_decline_code.trim() ? { decline_code: f.pay_decline_code.trim() } : {}),
    };
  }
  if (problems.length > 0) return problems.join(" ");
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
      {PAYMENT_EVENTS.has(f.event) ? (
        <fieldset className="field-grid" data-testid="assess-payment">
          <legend>Payment (optional): the card attempt as your processor answered it, never the card number</legend>
          {PAYMENT_FIELDS.map((field) => (
            <label key={field.name}>
              {field.label}
              <input
                name={field.name}
                value={f[field.name]}
                onChange={(e) => set(field.name, e.target.value)}
                placeholder={field.example}
                inputMode={
                  field.name === "pay_amount" || field.name === "pay_bin" || field.name === "pay_last4"
                    ? "numeric"
                    : undefined
                }
                autoComplete="off"
              />
              <span className="hint">{field.hint}</span>
            </label>
          ))}
          <label>
            Payment status
            <select name="pay_status" value={f.pay_status} onChange={(e) => set("pay_status", e.target.value)}>
              <option value="succeeded">succeeded</option>
              <option value="declined">declined</option>
              <option value="failed">failed</option>
            </select>
            <span className="hint">Declines count towards card testing</span>
          </label>
        </fieldset>
      ) : null}
      <div className="form-row">
        <BusyButton type="submit" className="btn btn-primary" busy={pending} data-testid="run-assessment">
          Assess
        </BusyButton>
        <span className="cost" data-testid="assess-cost">
          Costs {cost} of this month&apos;s allowance.
        </span>
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() =>
            setF({
              ...EMPTY,
              ...Object.fromEntries([...FIELDS, ...PAYMENT_FIELDS].map((x) => [x.name, x.example])),
              pay_decline_code: "",
              event: "checkout",
            })
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
