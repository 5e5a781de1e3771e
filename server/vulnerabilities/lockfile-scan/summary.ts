// A scan's summary and order: what a developer reads first. Malware before everything, then the worst verdicts;
// the upgrade list names the smallest version that fixes each package, malware first, then what is known to be
// exploited (CISA KEV), then severity, then the exploit likelihood (EPSS) of its worst CVE.
import { countBySeverity, severityRank, type Severity } from "../severity";
import type { ScanReport, ScannedPackage } from "./schemas";

type Upgrade = ScanReport["summary"]["upgrades"][number];

/** Malware first, then verdict score (highest first), then name and version. */
export function comparePackages(a: ScannedPackage, b: ScannedPackage): number {
  if (a.malware !== b.malware) return a.malware ? -1 : 1;
  if (a.verdict.score !== b.verdict.score) return b.verdict.score - a.verdict.score;
  return a.name.localeCompare(b.name) || a.version.localeCompare(b.version);
}

/** Malware first, then known-exploited, then the most severe advisory, then the highest EPSS (unknown last). */
export function compareUpgrades(a: Upgrade, b: Upgrade): number {
  if (a.malware !== b.malware) return a.malware ? -1 : 1;
  if (a.kev !== b.kev) return a.kev ? -1 : 1;
  const s = severityRank(b.maxSeverity) - severityRank(a.maxSeverity);
  if (s !== 0) return s;
  const ea = a.maxEpss ?? -1;
  const eb = b.maxEpss ?? -1;
  if (ea !== eb) return eb - ea;
  return a.name.localeCompare(b.name) || a.from.localeCompare(b.from);
}

function upgradeOf(p: ScannedPackage): Upgrade | null {
  if (!p.malware && p.advisories.length === 0) return null;
  const severities: Severity[] = p.advisories.map((a) => a.severity);
  const maxSeverity: Severity = p.malware
    ? "critical"
    : severities.reduce<Severity>((m, s) => (severityRank(s) > severityRank(m) ? s : m), "unknown");
  const scores = p.advisories.flatMap((a) => (a.epss ? [a.epss.epss] : []));
  const to = p.malware ? null : p.fixedIn;
  return {
    ecosystem: p.ecosystem,
    name: p.name,
    from: p.version,
    to,
    malware: p.malware,
    fixes: to ? p.advisories.filter((a) => a.affected === true).map((a) => a.id) : [],
    maxSeverity,
    maxEpss: scores.length ? Math.max(...scores) : null,
    kev: p.advisories.some((a) => a.kev && a.affected === true),
  };
}

export function summarise(packages: ScannedPackage[]): ScanReport["summary"] {
  const byFinding: Record<string, number> = {};
  for (const p of packages) for (const f of p.findings) byFinding[f.kind] = (byFinding[f.kind] ?? 0) + 1;
  return {
    packages: packages.length,
    vulnerable: packages.filter((p) => p.advisories.length > 0).length,
    malware: packages.filter((p) => p.malware).length,
    bySeverity: countBySeverity(packages.flatMap((p) => p.advisories.map((a) => a.severity))),
    byFinding,
    upgrades: packages.flatMap((p) => upgradeOf(p) ?? []).sort(compareUpgrades),
  };
}
