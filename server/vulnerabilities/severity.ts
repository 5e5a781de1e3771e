// One severity scale for every source: critical, high, moderate, low, unknown (the spec's values; "moderate" is
// npm's and GitHub's word for CVSS "medium"). Order of evidence, first match wins:
//   1. the database's own label (database_specific.severity, e.g. GitHub's CRITICAL/HIGH/MODERATE/LOW),
//   2. the highest CVSS base score among the record's and its affected entries' vectors (v4.0, v3.x, v2.0),
//      banded as CVSS v3 does: >= 9.0 critical, >= 7.0 high, >= 4.0 moderate, otherwise low,
//   3. unknown.
import * as cvssModule from "ae-cvss-calculator";

// The package is a CommonJS bundle: bundlers expose its names directly, Node's ESM loader only on `default`.
type CvssExports = typeof import("ae-cvss-calculator");
const cvss: CvssExports = (cvssModule as Partial<CvssExports>).Cvss2
  ? (cvssModule as CvssExports)
  : (cvssModule as unknown as { default: CvssExports }).default;
const { Cvss2, Cvss3P0, Cvss3P1, Cvss4P0 } = cvss;
import type { OsvVulnerability } from "../providers/packages/osv-types";

export const SEVERITIES = ["critical", "high", "moderate", "low", "unknown"] as const;
export type Severity = (typeof SEVERITIES)[number];

const RANK: Record<Severity, number> = { critical: 4, high: 3, moderate: 2, low: 1, unknown: 0 };

export function severityRank(s: Severity): number {
  return RANK[s];
}

/** Maps a label from any source (GitHub, npm audit, Go, PyPA) to the service's scale. */
export function severityFromLabel(label: unknown): Severity | null {
  if (typeof label !== "string") return null;
  switch (label.trim().toLowerCase()) {
    case "critical":
      return "critical";
    case "high":
    case "important":
      return "high";
    case "moderate":
    case "medium":
      return "moderate";
    case "low":
    case "info":
    case "none":
      return "low";
    default:
      return null;
  }
}

export function severityFromScore(score: number): Severity {
  if (score >= 9) return "critical";
  if (score >= 7) return "high";
  if (score >= 4) return "moderate";
  return "low";
}

/** Base score of a CVSS vector string, or null when the vector is not one the calculator accepts. */
export function cvssBaseScore(vector: string): number | null {
  try {
    const cvss = vector.startsWith("CVSS:4.0/")
      ? new Cvss4P0(vector)
      : vector.startsWith("CVSS:3.1/")
        ? new Cvss3P1(vector)
        : vector.startsWith("CVSS:3.0/")
          ? new Cvss3P0(vector)
          : /^\(?AV:[LAN]\//.test(vector)
            ? new Cvss2(vector.replace(/^\(|\)$/g, ""))
            : null;
    const base = cvss?.calculateScores().base;
    return typeof base === "number" && Number.isFinite(base) ? base : null;
  } catch {
    return null;
  }
}

export function severityOfOsv(vuln: OsvVulnerability): Severity {
  const labelled = severityFromLabel(vuln.database_specific?.severity);
  if (labelled) return labelled;
  for (const a of vuln.affected ?? []) {
    const l = severityFromLabel(a.ecosystem_specific?.severity) ?? severityFromLabel(a.database_specific?.severity);
    if (l) return l;
  }
  const vectors = [...(vuln.severity ?? []), ...(vuln.affected ?? []).flatMap((a) => a.severity ?? [])];
  let best: number | null = null;
  for (const s of vectors) {
    const score = cvssBaseScore(s.score);
    if (score !== null && (best === null || score > best)) best = score;
  }
  return best === null ? "unknown" : severityFromScore(best);
}

export function highestSeverity(list: Severity[]): Severity | "none" {
  if (list.length === 0) return "none";
  return list.reduce((a, b) => (RANK[b] > RANK[a] ? b : a));
}

export function countBySeverity(list: Severity[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { critical: 0, high: 0, moderate: 0, low: 0, unknown: 0 };
  for (const s of list) counts[s]++;
  return counts;
}
