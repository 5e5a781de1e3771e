// The audit trail: every account change is an investigation event of type `audit.<resource>.<action>` with its
// actor, time, IP and user agent where there is one, the target, and the change (before and after). Secrets are
// never written here: callers pass only public fields, and `redactSecrets` strips any field named like a secret.
import type { Db } from "../db/client";
import { sortableId } from "../ids";

/** Who made a change. Stored as "user:<id>", "api_key:<id>", "operator", "stripe:<event id>" or "system". */
export type Actor =
  | { kind: "user"; userId: string; email?: string | null; ip?: string | null; userAgent?: string | null }
  | { kind: "api_key"; apiKeyId: string; ip?: string | null; userAgent?: string | null }
  | {
      kind: "operator";
      /** The command line that made the change (no secrets: built by the command). */ command?: string;
    }
  | { kind: "stripe"; eventId: string }
  | { kind: "system"; reason: string };

/** The audit trail of account changes (one of the event types: server/events/types.ts). */
export const AUDIT_EVENT_TYPES = [
  "audit.plan.changed",
  "audit.key.created",
  "audit.key.revoked",
  "audit.key.paused",
  "audit.key.resumed",
  "audit.member.invited",
  "audit.member.removed",
  "audit.member.role_changed",
  "audit.webhook.created",
  "audit.webhook.updated",
  "audit.webhook.deleted",
  "audit.rule.created",
  "audit.rule.updated",
  "audit.rule.deleted",
  "audit.sender.added",
  "audit.sender.verified",
  "audit.sender.removed",
  "audit.weights.mode_changed",
  "audit.report.renamed",
  "audit.report.deleted",
  "audit.project.deleted",
  "audit.list.created",
  "audit.list.updated",
  "audit.list.deleted",
  "audit.list.items_added",
  "audit.list.item_removed",
  "audit.case.resolved",
  "audit.monitor.created",
  "audit.monitor.updated",
  "audit.monitor.deleted",
  "audit.monitor.paused",
  "audit.monitor.resumed",
  "audit.monitor.unsubscribed",
] as const;

export type AuditType = (typeof AUDIT_EVENT_TYPES)[number];

export interface AuditInput {
  workspaceId: string;
  type: AuditType;
  actor: Actor;
  /** The resource changed: its kind and id, and a label a person recognises (a key's name, a member's email). */
  target: { kind: string; id: string; label?: string | null };
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** The request that made the change, when there is one (correlates with X-Request-Id). */
  requestId?: string | null;
  /** Indexed fields that make the event findable by GET /events?query= (e.g. the rule id of a rule change). */
  index?: { rule?: string | null; domain?: string | null };
}

export function actorString(a: Actor): string {
  switch (a.kind) {
    case "user":
      return `user:${a.userId}`;
    case "api_key":
      return `api_key:${a.apiKeyId}`;
    case "operator":
      return "operator";
    case "stripe":
      return `stripe:${a.eventId}`;
    case "system":
      return "system";
  }
}

const SECRET_FIELD = /secret|token|password|hash|plaintext|api_?key$/i;

/** Drops any field whose name says it holds a secret (defence in depth: callers should not pass them). */
export function redactSecrets(o: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!o) return null;
  return Object.fromEntries(Object.entries(o).filter(([k]) => !SECRET_FIELD.test(k)));
}

type EventWriter = Pick<Db, "event">;

/** Writes one audit event; pass a transaction client to make it part of the change it records. */
export async function recordAudit(db: EventWriter, a: AuditInput): Promise<string> {
  const id = sortableId("evt");
  const ip = "ip" in a.actor ? (a.actor.ip ?? null) : null;
  const userAgent = "userAgent" in a.actor ? (a.actor.userAgent ?? null) : null;
  await db.event.create({
    data: {
      id,
      workspaceId: a.workspaceId,
      requestId: a.requestId ?? id,
      type: a.type,
      actor: actorString(a.actor),
      ip,
      email: a.actor.kind === "user" ? (a.actor.email?.toLowerCase() ?? null) : null,
      rule: a.index?.rule ?? null,
      domain: a.index?.domain?.toLowerCase() ?? null,
      data: {
        actor: { ...a.actor, ip: undefined, userAgent: undefined },
        target: a.target,
        before: redactSecrets(a.before),
        after: redactSecrets(a.after),
        ip,
        user_agent: userAgent,
      } as object,
    },
  });
  return id;
}
