// The words of an alert email: a subject naming the severity, the check and the monitor ("[Critical] TLS certificate
// on api.example.com: certificate expires within 7 days, TLSv1.3"), and a plain-text and a simple HTML body with the
// state now and before in the words the dashboard uses (../state-words.ts), the link to the monitor's page and the
// unsubscribe link.
import type { AlertRow } from "../alert-row";
import { checkLabel, stateWords } from "../state-words";
import { monitorUrl } from "../url";

interface MonitorRef {
  id: string;
  name: string | null;
  target: string;
}

const SEVERITY_WORD: Record<string, string> = { critical: "Critical", warning: "Warning", info: "Info" };

type Failing = { check_failing?: unknown; reason?: unknown; since?: unknown; failed_runs?: unknown };
const failingOf = (v: unknown): Failing | null =>
  v && typeof v === "object" && "check_failing" in v ? (v as Failing) : null;

/** A check that could not run (../failing.ts), in words: "could not run in 3 runs in a row since ...: reason". */
function failingInWords(before: unknown, after: unknown): string[] | null {
  const a = failingOf(after);
  const b = failingOf(before);
  if (a?.check_failing === true)
    return [
      `could not run in ${String(a.failed_runs)} runs in a row since ${String(a.since)}: ${String(a.reason)}`,
      "it keeps its last known state until it runs again",
    ];
  if (b?.check_failing === true && a?.check_failing === false)
    return [`runs again, after ${String(b.failed_runs)} failed runs since ${String(b.since)} (${String(b.reason)})`];
  return null;
}

/**
 * The change in words: a check that could not run (or runs again) as such, else the state now and, when there was
 * one, before ("now: listed on dbl.spamhaus.org", "before: not listed"), as the dashboard says them.
 */
export function changeInWords(check: string, before: unknown, after: unknown): string[] {
  const failing = failingInWords(before, after);
  if (failing) return failing;
  const state = (v: unknown) => (v && typeof v === "object" ? (v as Record<string, unknown>) : null);
  const now = `now: ${stateWords(check, state(after))}`;
  return before ? [now, `before: ${stateWords(check, state(before))}`] : [now];
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function composeAlertEmail(monitor: MonitorRef, alert: AlertRow, unsubscribeUrl: string) {
  const label = monitor.name ? `${monitor.name} (${monitor.target})` : monitor.target;
  const lines = changeInWords(alert.check, alert.before, alert.after);
  const check = checkLabel(alert.check);
  const resolved = alert.type === "monitor.resolved";
  const tag = resolved ? "Resolved" : (SEVERITY_WORD[alert.severity] ?? alert.severity);
  // A project monitor resolves finding by finding: its subject says which one, as its alert's subject did.
  const what = resolved
    ? alert.check === "project"
      ? (lines[0]?.replace(/^now: /, "") ?? "resolved")
      : "resolved"
    : alert.type === "monitor.skipped"
      ? "run skipped (the lookup allowance cannot pay)"
      : (lines[0]?.replace(/^now: /, "") ?? "changed");
  const subject = `[${tag}]${alert.reminder ? " Reminder:" : ""} ${check} on ${monitor.target}: ${what}`.slice(0, 250);
  const url = monitorUrl(monitor.id);
  const text = [
    `Monitor ${label}, check ${check}: ${resolved ? "resolved" : `${alert.severity}${alert.reminder ? " (still, reminder)" : ""}`}.`,
    "",
    ...(lines.length ? lines.map((l) => `- ${l}`) : ["- no change recorded"]),
    "",
    `Monitor: ${url}`,
    "",
    `Stop these emails for this monitor: ${unsubscribeUrl}`,
  ].join("\n");
  const html = [
    `<p>Monitor <strong>${escapeHtml(label)}</strong>, check <strong>${escapeHtml(check)}</strong>: ${escapeHtml(resolved ? "resolved" : alert.severity)}${alert.reminder ? " (reminder)" : ""}.</p>`,
    `<ul>${(lines.length ? lines : ["no change recorded"]).map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>`,
    `<p><a href="${escapeHtml(url)}">Open the monitor</a></p>`,
    `<p style="font-size:small"><a href="${escapeHtml(unsubscribeUrl)}">Stop these emails for this monitor</a></p>`,
  ].join("\n");
  return { subject, text, html };
}
