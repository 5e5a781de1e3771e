// What the bulk page's parts share: the job size limit, reading a pasted list, and jobs, kinds and durations in
// words (the form, the job's progress and results, and the list of jobs all say them the same way).
import { KIND_LABELS, type BulkKind } from "../../../server/bulk/kind-labels";
import { dnsStatusShort } from "../../../server/dns/status-words";
import { MX_TEXT } from "../_components/answers/NameCards";

export const MAX_TARGETS = 100;

/** Targets of a pasted or uploaded list: one per line (CSV: the first column); blanks and # comments left out. */
export function splitTargets(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) =>
      line
        .split(",")[0]!
        .trim()
        .replace(/^"(.*)"$/, "$1"),
    )
    .filter((t) => t.length > 0 && !t.startsWith("#"));
}

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${ms} ms`;
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * Where a job's items are, in words: "4 done, 1 failed, 3 remaining, 8 cancelled" (done always, the others when there
 * are some). Items running when a job is cancelled finish and count, so they are remaining until then. The jobs list
 * and the job's own progress line say the same parts, so the two never disagree.
 */
export function progressParts(p: {
  succeeded: number;
  failed: number;
  queued: number;
  running: number;
  cancelled: number;
}): string[] {
  const remaining = p.queued + p.running;
  return [
    `${p.succeeded} done`,
    ...(p.failed ? [`${p.failed} failed`] : []),
    ...(remaining ? [`${remaining} remaining`] : []),
    ...(p.cancelled ? [`${p.cancelled} cancelled`] : []),
  ];
}

export const kindLabel = (k: string | null | undefined) =>
  k && k in KIND_LABELS ? KIND_LABELS[k as BulkKind] : k === "auto" ? "Automatic" : (k ?? "—");

export const STATUS_LABEL: Record<string, string> = {
  queued: "Waiting",
  running: "Running",
  succeeded: "Done",
  failed: "Failed",
  cancelled: "Cancelled",
  completed: "Completed",
};

/** The summary fields (server/bulk/kinds.ts, the CSV's columns) whose names say nothing as they are. */
const SUMMARY_LABELS: Record<string, string> = {
  asn: "AS number",
  mx: "mail servers",
  network_type: "network",
  names: "subdomains",
  spf: "SPF",
  dmarc: "DMARC",
};

/** The summary values that are codes, in the words the lookup's own answer card uses. */
const SUMMARY_VALUES: Record<string, (v: string) => string> = {
  mx: (v) => MX_TEXT[v] ?? v,
};

/** A job item's summary in words: "mail servers: the domain does not exist · disposable: no · risk score: 90". */
export function summaryText(summary: Record<string, unknown> | null | undefined, kind?: string | null): string {
  if (!summary) return "";
  return Object.entries(summary)
    .filter(([, v]) => v !== null && v !== "" && v !== undefined)
    .map(([k, v]) => {
      const label = SUMMARY_LABELS[k] ?? k.replace(/_/g, " ");
      const value =
        typeof v === "boolean"
          ? v
            ? "yes"
            : "no"
          : kind === "dns" && k === "status"
            ? dnsStatusShort(String(v))
            : (SUMMARY_VALUES[k]?.(String(v)) ?? String(v));
      return `${label}: ${value}`;
    })
    .join(" · ");
}
