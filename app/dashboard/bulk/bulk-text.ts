// What the bulk page's parts share: the job size limit, reading a pasted list, and jobs, kinds and durations in
// words (the form, the job's progress and results, and the list of jobs all say them the same way).
import { KIND_LABELS, type BulkKind } from "../../../server/bulk/kind-labels";

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

export function summaryText(summary: Record<string, unknown> | null | undefined): string {
  if (!summary) return "";
  return Object.entries(summary)
    .filter(([, v]) => v !== null && v !== "" && v !== undefined)
    .map(([k, v]) => `${k.replace(/_/g, " ")}: ${typeof v === "boolean" ? (v ? "yes" : "no") : String(v)}`)
    .join(" · ");
}
