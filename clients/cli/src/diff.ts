// The diff of a project's scan (`diff` of the answer when the scan names a project): the findings it adds and the
// ones it fixes against the project's base scan, printed before the usual summary, and the SARIF log cut down to the
// added findings for --fail-on-new, so code scanning shows a pull request what it brings.
import type { DiffBase, KeptScan, ScanDiff, Severity } from "./answer.js";

/** One finding of diff.new or diff.fixed: a malware report, an advisory or a supply-chain finding on a package. */
export interface DiffFinding {
  ecosystem: string;
  name: string;
  version: string;
  /** malware, advisory, or the supply-chain finding's kind (install_script, typosquat, ...) */
  kind: string;
  /** The OSV id of a malware report or an advisory; null for a supply-chain finding. */
  id: string | null;
  severity: Severity;
  summary: string;
  fixed_version: string | null;
}

const SEVERITIES: readonly string[] = ["critical", "high", "moderate", "low", "unknown"];

/** diff.new or diff.fixed as findings; an entry that is not one is a broken answer, not something to skip. */
export function readFindings(entries: unknown[]): DiffFinding[] | null {
  const out: DiffFinding[] = [];
  for (const e of entries) {
    const f = e as Partial<DiffFinding> | null;
    if (!f || typeof f.name !== "string" || typeof f.version !== "string" || typeof f.kind !== "string") return null;
    out.push({
      ecosystem: String(f.ecosystem),
      name: f.name,
      version: f.version,
      kind: f.kind,
      id: typeof f.id === "string" ? f.id : null,
      severity: SEVERITIES.includes(String(f.severity)) ? (f.severity as Severity) : "unknown",
      summary: typeof f.summary === "string" ? f.summary : "",
      fixed_version: typeof f.fixed_version === "string" ? f.fixed_version : null,
    });
  }
  return out;
}

/** Lines of each list shown in the log; the JSON or SARIF report has them all. */
const SHOWN = 30;

function findingLine(mark: "+" | "-", f: DiffFinding): string {
  const where = `${f.name} ${f.version} (${f.ecosystem})`;
  if (f.kind === "malware") return `  ${mark} ${where}: malware ${f.id ?? ""}`.trimEnd();
  if (f.kind === "advisory") {
    const fix = f.fixed_version ? `, fixed in ${f.fixed_version}` : "";
    return `  ${mark} ${where}: ${f.severity} ${f.id ?? "advisory"}${fix}`;
  }
  return `  ${mark} ${where}: ${f.kind.replace(/_/g, " ")} (${f.severity})`;
}

function listed(mark: "+" | "-", findings: DiffFinding[]): string[] {
  const lines = findings.slice(0, SHOWN).map((f) => findingLine(mark, f));
  if (findings.length > SHOWN) lines.push(`  ... and ${findings.length - SHOWN} more`);
  return lines;
}

function against(base: DiffBase | null, baseRef: string | null): string {
  if (base) return `${base.ref} (scan ${base.scan_id} of ${base.created_at})`;
  return baseRef ?? "the default ref";
}

/** The diff's lines, before the usual summary: where the scan was kept, what the change adds, then what it fixes. */
export function diffLines(
  a: { project: string; kept: KeptScan | undefined; baseRef: string | null },
  diff: ScanDiff,
  added: DiffFinding[],
  fixed: DiffFinding[],
): string {
  const scan = a.kept ? `${a.project} ${a.kept.ref} (scan ${a.kept.scan_id})` : a.project;
  const base = against(diff.base, a.baseRef);
  const lines = diff.base
    ? [`${scan}: compared with ${base}`]
    : [`${scan}: no earlier scan of ${base} to compare with, so every finding is new`];
  lines.push(`new: ${added.length}`, ...listed("+", added));
  lines.push(`fixed: ${fixed.length}`, ...listed("-", fixed));
  lines.push(`unchanged: ${diff.unchanged}`);
  return lines.join("\n");
}

type SarifResult = { ruleId?: string; properties?: { ecosystem?: string; package?: string; version?: string } };
type SarifLog = { runs?: Array<{ results?: SarifResult[]; properties?: Record<string, unknown> }> };

/** A finding's SARIF rule: the report's or advisory's id, or `supply-chain/<kind>` (the service's renderer's rule). */
const ruleOf = (f: DiffFinding) => (f.id !== null ? f.id : `supply-chain/${f.kind}`);
const resultKey = (ecosystem: string, name: string, version: string, rule: string) =>
  JSON.stringify([ecosystem, name, version, rule]);

/** The service's SARIF log with only the results of the added findings (rules kept, so rule indexes still hold). */
export function onlyNewResults(sarif: string, added: DiffFinding[]): string {
  const keep = new Set(added.map((f) => resultKey(f.ecosystem, f.name, f.version, ruleOf(f))));
  const log = JSON.parse(sarif) as SarifLog;
  for (const run of log.runs ?? []) {
    run.results = (run.results ?? []).filter((r) => {
      const p = r.properties ?? {};
      return keep.has(resultKey(String(p.ecosystem), String(p.package), String(p.version), String(r.ruleId)));
    });
    run.properties = { ...run.properties, onlyNew: true };
  }
  return JSON.stringify(log);
}
