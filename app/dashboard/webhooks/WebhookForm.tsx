"use client";
// Name, receiver URL and event types of a webhook, for creating one and for editing it.
import { useState } from "react";

export interface WebhookFields {
  name: string;
  url: string;
}

export function WebhookForm({
  initial,
  submitLabel,
  pending,
  onSubmit,
}: {
  initial?: WebhookFields;
  submitLabel: string;
  pending: boolean;
  onSubmit: (f: WebhookFields) => void;
}) {
  const [f, setF] = useState<WebhookFields>(initial ?? { name: "", url: "" });
  return (
    <form
      className="form-row"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit({ name: f.name.trim(), url: f.url.trim() });
      }}
    >
      <label>
        Name
        <input
          name="name"
          value={f.name}
          onChange={(e) => setF({ ...f, name: e.target.value })}
          maxLength={100}
          required
          placeholder="Fraud alerts"
        />
      </label>
      <label className="grow">
        Receiver URL
        <input
          name="url"
          value={f.url}
          onChange={(e) => setF({ ...f, url: e.target.value })}
          maxLength={2048}
          required
          placeholder="https://example.com/hooks/fraud"
          type="url"
        />
      </label>
      <fieldset className="plain-fieldset">
        <legend>Events</legend>
        <label className="inline">
          <input type="checkbox" checked readOnly disabled /> High-risk assessment
        </label>
      </fieldset>
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {submitLabel}
      </button>
    </form>
  );
}
