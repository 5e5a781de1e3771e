"use client";
// Name, receiver URL and event types of a webhook, for creating one and for editing it. A refusal of what was sent is
// said below the fields and at the field it is about (marked, described by it and focused: field-problem.ts).
import { useState } from "react";
import { BusyButton } from "../_components/BusyButton";
import { ErrorNote } from "../_components/ErrorNote";
import { useRefusalAtField } from "../_components/field-problem";
import { inFormWords } from "../_components/field-words";

export const EVENT_TYPE_LABELS = {
  high_risk_assessment: "High-risk assessment",
  "case.resolved": "Review case resolved",
  "monitor.alert": "Monitor alert",
  "monitor.resolved": "Monitor alert resolved",
} as const;
export type WebhookEventType = keyof typeof EVENT_TYPE_LABELS;

/** The form's fields as it labels them: the API's refusals ("url: must start with https://.") said in its words. */
export const WEBHOOK_LABELS: Record<string, string> = { name: "Name", url: "Receiver URL", event_types: "Events" };

export interface WebhookFields {
  name: string;
  url: string;
  event_types: WebhookEventType[];
}

export function WebhookForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
}: {
  initial?: WebhookFields;
  submitLabel: string;
  pending: boolean;
  /** The service's refusal of the last submission, or null. */
  error: unknown;
  onSubmit: (f: WebhookFields) => void;
}) {
  const refusal = useRefusalAtField(error, { labels: WEBHOOK_LABELS, main: "url" });
  const [f, setF] = useState<WebhookFields>(initial ?? { name: "", url: "", event_types: ["high_risk_assessment"] });
  const toggle = (t: WebhookEventType, on: boolean) =>
    setF({ ...f, event_types: on ? [...f.event_types, t] : f.event_types.filter((x) => x !== t) });
  return (
    <>
      <form
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit({ name: f.name.trim(), url: f.url.trim(), event_types: f.event_types });
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
            {...refusal.fieldProps("name")}
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
            {...refusal.fieldProps("url")}
          />
        </label>
        <fieldset className="plain-fieldset">
          <legend>Events</legend>
          {(Object.keys(EVENT_TYPE_LABELS) as WebhookEventType[]).map((t, i) => (
            <label className="inline" key={t}>
              <input
                type="checkbox"
                {...(i === 0 ? refusal.fieldProps("event_types") : {})}
                checked={f.event_types.includes(t)}
                onChange={(e) => toggle(t, e.target.checked)}
                data-testid={`event-type-${t}`}
              />{" "}
              {EVENT_TYPE_LABELS[t]}
            </label>
          ))}
        </fieldset>
        <BusyButton type="submit" className="btn btn-primary" disabled={f.event_types.length === 0} busy={pending}>
          {submitLabel}
        </BusyButton>
      </form>
      <ErrorNote error={error} words={(m) => inFormWords(m, WEBHOOK_LABELS)} id={refusal.noteId} />
    </>
  );
}
