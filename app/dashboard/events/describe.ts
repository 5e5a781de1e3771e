// Events in words: a title per type and a one-line summary per record, for the events page and its detail panel.
// The type strings stay in the data (the CSV and /v1/events carry them); the page shows what they mean. A type
// without its own words here still reads as its words, never as a bare dash.
import { checkLabel, stateWords } from "../../../server/monitors/state-words";
import { isPlanSlug, PLANS } from "../../../server/plans/catalog";

export type EventRecord = {
  id: string;
  requestId: string;
  type: string;
  actor: string | null;
  ip: string | null;
  email: string | null;
  domain: string | null;
  rule: string | null;
  data: unknown;
  created_at: string;
};

const TITLES: Record<string, string> = {
  assessment: "Assessment",
  "assessment.outcome": "Outcome labelled",
  "monitor.alert": "Monitor alert",
  "monitor.resolved": "Monitor alert resolved",
  "monitor.skipped": "Monitor run skipped",
  "link.created": "Protected link created",
  "link.visit_blocked": "Protected link visit refused",
  "link.disabled": "Protected link disabled",
  "link.enabled": "Protected link turned back on",
  "webhook.delivery_paused": "Webhook delivery paused",
  "webhook.delivery_failed": "Webhook delivery failed",
  "sender.posture_changed": "Sender posture changed",
  "audit.plan.changed": "Plan changed",
  "audit.key.created": "API key created",
  "audit.key.revoked": "API key revoked",
  "audit.key.paused": "API key paused",
  "audit.key.resumed": "API key resumed",
  "audit.member.invited": "Member invited",
  "audit.member.removed": "Member removed",
  "audit.member.role_changed": "Member role changed",
  "audit.webhook.created": "Webhook created",
  "audit.webhook.updated": "Webhook changed",
  "audit.webhook.deleted": "Webhook deleted",
  "audit.rule.created": "Rule created",
  "audit.rule.updated": "Rule changed",
  "audit.rule.deleted": "Rule deleted",
  "audit.sender.added": "Sender added",
  "audit.sender.verified": "Sender verified",
  "audit.sender.removed": "Sender removed",
  "audit.weights.mode_changed": "Signal weights switched",
  "audit.report.renamed": "Report renamed",
  "audit.report.deleted": "Report deleted",
  "audit.project.deleted": "Project deleted",
  "audit.list.created": "List created",
  "audit.list.updated": "List changed",
  "audit.list.deleted": "List deleted",
  "audit.list.items_added": "List items added",
  "audit.list.item_removed": "List item removed",
  "audit.case.resolved": "Case resolved",
  "audit.monitor.created": "Monitor created",
  "audit.monitor.updated": "Monitor changed",
  "audit.monitor.deleted": "Monitor deleted",
  "audit.monitor.paused": "Monitor paused",
  "audit.monitor.resumed": "Monitor resumed",
  "audit.monitor.unsubscribed": "Monitor email unsubscribed",
};

/** A readable title for an event type; unknown types read as their words ("scan.finished" -> "Scan finished"). */
export function eventTitle(type: string): string {
  if (TITLES[type]) return TITLES[type];
  const words = type
    .replace(/^audit\./, "")
    .replace(/[._]/g, " ")
    .trim();
  return words ? words[0].toUpperCase() + words.slice(1) : type;
}

/** The type filter presets of the page, each a value of the API's `type` parameter. */
export const TYPE_PRESETS: { value: string; label: string }[] = [
  { value: "", label: "All types" },
  { value: "assessment", label: "Assessments" },
  { value: "assessment.outcome,audit.case.", label: "Case resolutions and outcome labels" },
  { value: "monitor.", label: "Monitor alerts" },
  { value: "audit.", label: "Account changes" },
  { value: "link.", label: "Protected links" },
  { value: "webhook.", label: "Webhook deliveries" },
  { value: "sender.", label: "Sender monitoring" },
  { value: "audit.key.", label: "API key changes" },
  { value: "audit.member.,audit.plan.", label: "Members and plan" },
  { value: "audit.rule.,audit.webhook.", label: "Rule and webhook changes" },
  { value: "audit.list.", label: "List changes" },
  { value: "audit.monitor.", label: "Monitor changes" },
];

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);

export type AuditActor = {
  kind?: string;
  userId?: string;
  email?: string | null;
  apiKeyId?: string;
  command?: string;
  eventId?: string;
  reason?: string;
};

/** The workspace's API keys as its keys page shows them, by id: "ci (svc_live_ab…)". */
export type KeyNames = ReadonlyMap<string, string>;

/**
 * Who made an account change, in words. An API key is said by its name and prefix (`keys`, the workspace's key
 * list): its id ("key_01a2…") is shown nowhere else in the dashboard, and stays in the whole record.
 */
export function actorText(actor: unknown, fallback: string | null, keys?: KeyNames): string {
  const a = obj(actor) as AuditActor;
  switch (a.kind) {
    case "user":
      return a.email ? `${a.email} (dashboard)` : "A signed-in member (dashboard)";
    case "api_key": {
      const named = a.apiKeyId ? keys?.get(a.apiKeyId) : undefined;
      return named ? `The API key ${named}` : "An API key";
    }
    case "operator":
      // The operator's command line (`plan set --workspace ws_… --plan suite_agency`) is theirs, not the customer's:
      // it stays in the record (Show the whole record, the CSV, /v1/events), the page says who.
      return "The service operator";
    case "stripe":
      return "A Stripe billing event";
    case "system":
      return "The service" + (a.reason ? ` (${a.reason})` : "");
  }
  return fallback ?? "—";
}

/** Who made a change after "by", mid-sentence: "by the service operator", "by an API key", "by jo@example.com …". */
function byActor(actor: unknown, fallback: string | null, keys?: KeyNames): string {
  return `by ${actorText(actor, fallback, keys).replace(/^(The|An|A) /, (article) => article.toLowerCase())}`;
}

/** The account change's target, e.g. "API key ci (sk_live_ab…)". */
export function targetText(target: unknown): string | null {
  const t = obj(target);
  if (t.kind === "case") return caseText(t);
  // The workspace's own id says nothing to its members: it is the workspace they are looking at.
  if (t.kind === "workspace") return "This workspace";
  const kind = str(t.kind)?.replace(/_/g, " ");
  const label = str(t.label) ?? str(t.id);
  if (!kind && !label) return null;
  // It begins the row's line and the panel's What: "Webhook Fraud alerts", not "webhook Fraud alerts".
  const k = kind === "api key" ? "API key" : kind && kind[0]!.toUpperCase() + kind.slice(1);
  return [k, label].filter(Boolean).join(" ");
}

/** The fields that differ between `before` and `after` (both may be null: created or deleted). */
export function changedFields(before: unknown, after: unknown): { field: string; before: unknown; after: unknown }[] {
  const b = obj(before);
  const a = obj(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return keys
    .filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]))
    .map((k) => ({ field: k, before: before == null ? undefined : b[k], after: after == null ? undefined : a[k] }));
}

/** Plans by their names: ["free"] -> "Free", ["email", "suite_agency"] -> "Email and Suite Agency". */
export function planNames(v: unknown): string | null {
  if (!Array.isArray(v) || !v.every((p) => typeof p === "string")) return null;
  const names = (v as string[]).map((p) => (isPlanSlug(p) ? PLANS[p].name : p));
  if (names.length === 0) return "none";
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** A changed field's value in the drawer's Change table: plans by their names, the rest as valueText says. */
export function changeValueText(field: string, v: unknown): string {
  return (field === "plans" && planNames(v)) || valueText(v);
}

export function valueText(v: unknown): string {
  if (v === undefined) return "—";
  if (v === null) return "none";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "number") return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== "object")) return v.join(", ") || "none";
  return JSON.stringify(v);
}

const RISK_WORDS: Record<string, string> = {
  low: "low risk",
  medium: "medium risk",
  high: "high risk",
  critical: "critical risk",
};

/** One line that says what happened. */
export function eventSummary(e: EventRecord, keys?: KeyNames): string {
  const d = obj(e.data);
  if (e.type === "assessment") {
    const parts = [
      str(d.event) ? `${d.event} event` : "Event",
      typeof d.score === "number" ? `score ${d.score}` : null,
      str(d.risk_level) ? (RISK_WORDS[d.risk_level as string] ?? String(d.risk_level)) : null,
      str(d.decision) ? `decision: ${d.decision}` : null,
    ];
    const who = [e.ip, e.email].filter(Boolean).join(" · ");
    return parts.filter(Boolean).join(", ") + (who ? ` — ${who}` : "");
  }
  if (e.type === OUTCOME) return outcomeSummary(d);
  if (e.type.startsWith("monitor.")) return monitorSummary(e.type, d);
  if (e.type === "audit.plan.changed") {
    const now = planNames(obj(d.after).plans);
    const was = planNames(obj(d.before).plans);
    const what = now ? `Plan ${now}${was ? ` (was ${was})` : ""}` : null;
    return [what, byActor(d.actor, e.actor, keys)].filter(Boolean).join(", ");
  }
  if (e.type === "audit.case.resolved") {
    const after = obj(d.after);
    const resolution = str(after.resolution);
    return `${caseText(d.target)} resolved${resolution ? ` as ${OUTCOME_WORDS[resolution] ?? resolution}` : ""}, ${byActor(d.actor, e.actor, keys)}`;
  }
  if (e.type.startsWith("audit.")) {
    const target = targetText(d.target);
    return [target, byActor(d.actor, e.actor, keys)].filter(Boolean).join(", ");
  }
  if (e.type.startsWith("link.")) {
    const reason = str(d.reason) ? ` (${String(d.reason).replace(/_/g, " ")})` : "";
    return `${str(d.slug) ? `/go/${d.slug}` : "Link"} → ${str(d.url) ?? e.domain ?? "?"}${reason}`;
  }
  if (e.type.startsWith("webhook.")) {
    const status = typeof d.last_status === "number" ? `the receiver answered ${d.last_status}` : str(d.last_error);
    return [webhookText(d), status].filter(Boolean).join(": ");
  }
  if (e.type === "sender.posture_changed")
    return `${str(d.sender) ?? e.domain ?? "A sender"}: its email authentication changed`;
  return [e.ip, e.email, e.domain, e.rule].filter(Boolean).join(" · ") || `${eventTitle(e.type)} (no details recorded)`;
}

/**
 * The webhook a delivery event is about, by its name and address ("Webhook “Fraud alerts” to https://…"): its id says
 * nothing to a person (it stays in the whole record). Events written before the name was kept say "A webhook".
 */
export function webhookText(d: Obj): string {
  const name = str(d.webhook_name);
  const url = str(d.webhook_url);
  if (name && url) return `Webhook “${name}” to ${url}`;
  if (name) return `Webhook “${name}”`;
  if (url) return `Webhook to ${url}`;
  return "A webhook";
}

const OUTCOME = "assessment.outcome";
const OUTCOME_WORDS: Record<string, string> = {
  fraud: "fraud",
  legitimate: "legitimate",
  chargeback: "chargeback",
  account_takeover: "account takeover",
  abuse: "abuse",
};

/** "Assessment labelled fraud (was legitimate): “stolen card”". */
function outcomeSummary(d: Obj): string {
  const outcome = str(d.outcome);
  const previous = str(d.previous);
  const note = str(d.note);
  return (
    `Assessment labelled ${outcome ? (OUTCOME_WORDS[outcome] ?? outcome) : "with an outcome"}` +
    (previous ? ` (was ${OUTCOME_WORDS[previous] ?? previous})` : "") +
    (note ? `: “${note}”` : "")
  );
}

/**
 * A review case by its account: resolutions name it "case of mallory". Older records labelled it with the
 * assessment's request id only, which says nothing to a person: those read "a case".
 */
export function caseText(target: unknown): string {
  const label = str(obj(target).label);
  return label && !/^req_/.test(label) ? `Case of ${label}` : "A case";
}

/** The monitor an alert is about: its name, else its target. */
export function monitorText(d: Obj): string {
  const m = obj(d.monitor);
  return str(m.name) ?? str(m.target) ?? "A monitor";
}

/** A monitor alert's state before and after, in words (the monitor timeline's words). */
export function monitorChange(type: string, d: Obj): { before: string; after: string } | null {
  const check = str(d.check) ?? "";
  if (type === "monitor.skipped") return null;
  const before = d.before && typeof d.before === "object" ? stateWords(check, d.before as Obj) : "first run";
  return { before, after: stateWords(check, obj(d.after)) };
}

const SEVERITY: Record<string, string> = { warning: "warning", critical: "problem", info: "for information" };

function monitorSummary(type: string, d: Obj): string {
  const name = monitorText(d);
  const check = checkLabel(str(d.check) ?? "");
  if (type === "monitor.skipped") {
    const reason = str(obj(d.after).reason);
    return `${name}: a run was skipped${reason ? ` (${reason})` : ""}`;
  }
  const change = monitorChange(type, d);
  const arrow = change ? `: ${change.before} → ${change.after}` : "";
  if (type === "monitor.resolved") return `${name}: ${check} resolved${arrow}`;
  const severity = str(d.severity);
  const how = d.reminder === true ? "still" : "changed";
  return `${name}: ${check} ${how}${severity ? ` (${SEVERITY[severity] ?? severity})` : ""}${arrow}`;
}
