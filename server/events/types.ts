// Every event type the service writes, in one place: the audit trail's list is audit.ts's (AuditType is derived
// from it); the other writers (assessments and their outcomes, links, monitor alerts, sender monitoring, webhook
// deliveries) write the literals listed here. The /events and /events.csv `type` filter accepts only these and the
// prefixes of them, so a misspelt filter is a 400 naming what exists, not an empty page that reads as "nothing
// happened". A new event type is added here, or its filter is refused.
import { AUDIT_EVENT_TYPES } from "../audit/audit";

export const EVENT_TYPES = [
  "assessment",
  "assessment.outcome",
  ...AUDIT_EVENT_TYPES,
  "link.created",
  "link.disabled",
  "link.enabled",
  "link.visit_blocked",
  "monitor.alert",
  "monitor.resolved",
  "monitor.skipped",
  "sender.posture_changed",
  "webhook.delivery_paused",
  "webhook.delivery_failed",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Why an entry of the `type` filter names no event the service writes (neither a type nor, ending in `.`, a prefix
 * of one), or null when it does.
 */
export function unknownEventTypeReason(entry: string): string | null {
  const known = entry.endsWith(".")
    ? EVENT_TYPES.some((t) => t.startsWith(entry))
    : (EVENT_TYPES as readonly string[]).includes(entry);
  return known ? null : `unknown event type ${entry}`;
}

/** "audit., link., ..." : the prefixes a filter may end in a dot with, for the docs and refusals. */
export function eventTypePrefixes(): string[] {
  return [...new Set(EVENT_TYPES.filter((t) => t.includes(".")).map((t) => `${t.split(".")[0]}.`))];
}
