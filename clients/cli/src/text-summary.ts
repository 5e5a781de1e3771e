// The short human summary a CI log shows: counts, then what to do (malware to remove first, then upgrades with the
// advisories they fix), then the supply-chain findings by kind. Read from the summary alone, which both the JSON
// answer and the SARIF log carry, so every output format prints the same words.
import type { ScanSource, ScanSummary } from "./answer.js";

/** Advisory ids shown per upgrade; the JSON or SARIF report has them all. */
const IDS_SHOWN = 5;

function fixes(ids: string[]): string {
  if (ids.length === 0) return "";
  const shown = ids.slice(0, IDS_SHOWN).join(", ");
  return ids.length > IDS_SHOWN ? ` (${shown} and ${ids.length - IDS_SHOWN} more)` : ` (${shown})`;
}

function upgradeLine(u: ScanSummary["upgrades"][number]): string {
  if (u.malware) return `remove ${u.name} ${u.from} (${u.ecosystem}): reported as malware`;
  if (u.to === null) return `${u.name} ${u.from} -> no fixed version (${u.maxSeverity})`;
  return `${u.name} ${u.from} -> ${u.to}${fixes(u.fixes)}`;
}

/**
 * A source that did not answer, or answered for only some packages: what its findings lack. A CI reader must tell
 * "no supply-chain findings" from "not checked" (OSV's own outage is a 503, never a summary).
 */
function missingLine(s: ScanSource): string {
  const what = s.source.startsWith("registry:")
    ? "supply-chain findings (install scripts, maintainers, typosquats)"
    : s.source.startsWith("typosquat:")
      ? "typosquat findings"
      : "its evidence";
  return `  ${s.source} ${s.status}${s.reason ? `: ${s.reason}` : ""}; ${what} may be missing`;
}

export function textSummary(file: string, format: string, summary: ScanSummary, sources: ScanSource[] = []): string {
  const s = summary.bySeverity;
  const lines = [
    `${file} (${format}): ${summary.packages} packages, ${summary.vulnerable} vulnerable, ${summary.malware} malware`,
    `advisories: ${s.critical} critical, ${s.high} high, ${s.moderate} moderate, ${s.low} low, ${s.unknown} unknown`,
  ];
  if (summary.upgrades.length) lines.push("upgrades:", ...summary.upgrades.map((u) => `  ${upgradeLine(u)}`));
  const kinds = Object.entries(summary.byFinding).sort(([a], [b]) => a.localeCompare(b));
  if (kinds.length) lines.push(`findings: ${kinds.map(([kind, n]) => `${kind} ${n}`).join(", ")}`);
  const missing = sources.filter((s) => s.status === "unavailable" || s.status === "partial");
  if (missing.length) lines.push("not checked:", ...missing.map(missingLine));
  return lines.join("\n");
}
