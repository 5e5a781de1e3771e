// A package version's verdict: one score from 0 to 100 with the findings that moved it, most weight first, as
// `/assess` explains its score. Each piece of evidence has a weight (the chance, in percent, that it alone makes the
// version unsafe to install); they combine as independent chances, so two moderate findings weigh more than one and
// nothing but a malware report reaches 100.
import type { Severity } from "./severity";
import type { SupplyChainFinding, SupplyChainKind } from "./supply-chain";

export type PackageVerdict = {
  score: number;
  level: "none" | "low" | "medium" | "high" | "critical";
  reasons: string[];
};

export type VerdictEvidence = {
  malware: boolean;
  advisories: Array<{ id?: string; severity: Severity; kev: boolean; epss: number | null }>;
  findings: SupplyChainFinding[];
};

const ADVISORY_WEIGHT: Record<Severity, number> = { critical: 70, high: 45, moderate: 20, low: 5, unknown: 10 };
const FINDING_WEIGHT: Record<SupplyChainKind, number> = {
  typosquat: 60,
  new_publisher: 25,
  install_script: 15,
  fresh_release: 15,
  yanked: 15,
  deprecated: 8,
  unmaintained: 5,
  repository_mismatch: 5,
  repository_missing: 3,
};
/** A name near a popular one whose downloads could not be compared (supply-chain.ts): a hint, not a squat. */
const UNCONFIRMED_TYPOSQUAT_WEIGHT = 10;
/** A known-exploited CVE, or an EPSS probability over this, weighs as much as a critical advisory. */
const LIKELY_EXPLOITED_EPSS = 0.5;

function levelOf(score: number): PackageVerdict["level"] {
  if (score >= 90) return "critical";
  if (score >= 60) return "high";
  if (score >= 30) return "medium";
  if (score > 0) return "low";
  return "none";
}

export function packageVerdict(e: VerdictEvidence): PackageVerdict {
  const moved: Array<{ weight: number; reason: string }> = [];
  if (e.malware) moved.push({ weight: 100, reason: "Reported as malicious (OpenSSF Malicious Packages): remove it" });
  for (const a of e.advisories) {
    const exploited = a.kev || (a.epss !== null && a.epss >= LIKELY_EXPLOITED_EPSS);
    const weight = exploited
      ? Math.max(ADVISORY_WEIGHT[a.severity], ADVISORY_WEIGHT.critical)
      : ADVISORY_WEIGHT[a.severity];
    const why = a.kev
      ? ", exploited in the wild (CISA KEV)"
      : exploited
        ? `, likely to be exploited (EPSS ${Math.round((a.epss ?? 0) * 100)} %)`
        : "";
    moved.push({
      weight,
      reason: `${a.severity === "unknown" ? "An" : `A ${a.severity}`} advisory${a.id ? ` (${a.id})` : ""}${why}`,
    });
  }
  for (const f of e.findings) {
    const unconfirmed = f.kind === "typosquat" && f.evidence.downloads_compared === false;
    moved.push({ weight: unconfirmed ? UNCONFIRMED_TYPOSQUAT_WEIGHT : FINDING_WEIGHT[f.kind], reason: f.reason });
  }
  moved.sort((a, b) => b.weight - a.weight);
  const safe = moved.reduce((p, m) => p * (1 - m.weight / 100), 1);
  const score = Math.round(100 * (1 - safe));
  return { score, level: levelOf(score), reasons: moved.map((m) => m.reason) };
}
