// A scan's findings as one flat list, and the difference between two scans of a project. A finding is what was
// found on a package: a malware report, an advisory, or a supply-chain finding (install script, typosquat, ...).
// It is the same finding in two scans when the package (ecosystem and name), its kind and its id are: the version
// is left out, so moving to another version that the advisory still affects is not "new" (a pull request is
// failed only on what it adds), while moving to a fixing version makes it "fixed". A supply-chain finding that one of
// the two scans could not compute (the package's registry was unavailable to it, so its findings are missing, not
// absent) is unknown there: it is carried as unchanged, never new or fixed, or an outage would fail a pull request
// that changed nothing (`--fail-on-new`) or claim a fix nobody made.
import { z } from "zod";
import type { ScanReport } from "../vulnerabilities/lockfile-scan/schemas";
import { ECOSYSTEMS } from "../vulnerabilities/versions";

export const findingSchema = z.object({
  ecosystem: z.enum(ECOSYSTEMS),
  name: z.string(),
  version: z.string().describe("The version the scan found it on"),
  kind: z
    .string()
    .describe("malware (an OSV MAL- report), advisory, or a supply-chain finding's kind (install_script, ...)"),
  id: z.string().nullable().describe("The report's or advisory's OSV id; null for a supply-chain finding"),
  severity: z.string().describe("critical, high, moderate, low or unknown"),
  summary: z.string().describe("What was found"),
  fixed_version: z.string().nullable().describe("The lowest version that fixes it (advisories); null otherwise"),
});
export type Finding = z.infer<typeof findingSchema>;

const SEVERITY_ORDER = ["critical", "high", "moderate", "low", "unknown"];
const rank = (s: string) => {
  const i = SEVERITY_ORDER.indexOf(s);
  return i < 0 ? SEVERITY_ORDER.length : i;
};

let listsBuilt = 0;
/**
 * How many finding lists findingsOf has built in this process: a list is a walk of every package and a sort, so a
 * request builds each scan's list once (tests count them around a request).
 */
export const findingListsBuilt = () => listsBuilt;

/** The findings of a scan's answer, most severe first, then by package and id. */
export function findingsOf(report: Pick<ScanReport, "packages">): Finding[] {
  listsBuilt++;
  const out: Finding[] = [];
  for (const p of report.packages) {
    const pkg = { ecosystem: p.ecosystem, name: p.name, version: p.version };
    for (const m of p.malwareReports)
      out.push({ ...pkg, kind: "malware", id: m.id, severity: "critical", summary: m.summary, fixed_version: null });
    for (const a of p.advisories)
      out.push({
        ...pkg,
        kind: "advisory",
        id: a.id,
        severity: a.severity,
        summary: a.summary,
        fixed_version: a.nearestFixedVersion,
      });
    for (const f of p.findings)
      out.push({ ...pkg, kind: f.kind, id: null, severity: f.severity, summary: f.reason, fixed_version: null });
  }
  return out.sort(
    (a, b) =>
      rank(a.severity) - rank(b.severity) ||
      a.name.localeCompare(b.name) ||
      a.kind.localeCompare(b.kind) ||
      (a.id ?? "").localeCompare(b.id ?? ""),
  );
}

/** The identity of a finding across scans (see the top of this file). */
export const findingKey = (f: Pick<Finding, "ecosystem" | "name" | "kind" | "id">) =>
  `${f.ecosystem}\u0000${f.name}\u0000${f.kind}\u0000${f.id ?? ""}`;

/** Finding kinds from OSV; every other kind is a supply-chain finding (registry document and typosquat check). */
const ADVISORY_KINDS = new Set(["malware", "advisory"]);

/**
 * A package (ecosystem and name) in the sets below, in words: `npm:jquery` (an ecosystem holds no colon). A project
 * monitor keeps these in its stored state (server/monitors/checks/project.ts).
 */
export const packageKey = (p: { ecosystem: string; name: string }) => `${p.ecosystem}:${p.name}`;

/** A finding that the registry document or the typosquat check gives, not OSV (a malware report or advisory). */
export const isSupplyChain = (f: Pick<Finding, "kind">) => !ADVISORY_KINDS.has(f.kind);

/**
 * The packages (ecosystem and name) whose supply-chain findings a scan could not compute: its registry was
 * unavailable for them (server/vulnerabilities/lockfile-scan/registry-facts.ts answers their `findings` empty with
 * `registry.status: unavailable`); and `npm:name typosquat` for a package whose typosquat check alone could not be
 * done (`typosquatCheck.status: unavailable`). Their malware reports and advisories come from OSV and stand.
 */
export function packagesWithoutSupplyChain(report: Pick<ScanReport, "packages">): Set<string> {
  const out = new Set<string>();
  for (const p of report.packages) {
    if (p.registry.status === "unavailable") out.add(packageKey(p));
    // Its typosquat check alone could not be done: that kind only (a report kept before the check said how it went
    // has no typosquatCheck, and counts as checked).
    else if (p.typosquatCheck?.status === "unavailable") out.add(`${packageKey(p)} typosquat`);
  }
  return out;
}

/** A supply-chain finding that a set of packagesWithoutSupplyChain names (its package, or its package and kind). */
export const isUncomputed = (f: Pick<Finding, "ecosystem" | "name" | "kind">, unknown: ReadonlySet<string>) =>
  isSupplyChain(f) && (unknown.has(packageKey(f)) || unknown.has(`${packageKey(f)} ${f.kind}`));

export interface FindingsDiff {
  new: Finding[];
  fixed: Finding[];
  unchanged: number;
}

/**
 * What `current` adds to `base` (new), what it no longer has (fixed, as the base had it) and how many stay. `unknown`
 * names the packages whose supply-chain findings either scan could not compute (packagesWithoutSupplyChain of both):
 * such a finding in only one of the two is counted unchanged, as no change was seen.
 */
export function diffFindings(
  base: Finding[],
  current: Finding[],
  unknown: ReadonlySet<string> = new Set(),
): FindingsDiff {
  const before = new Set(base.map(findingKey));
  const after = new Set(current.map(findingKey));
  const carried = new Set<string>();
  const isChange = (f: Finding, k: string) => {
    if (isUncomputed(f, unknown)) {
      carried.add(k);
      return false;
    }
    return true;
  };
  const added: Finding[] = [];
  const seen = new Set<string>();
  for (const f of current) {
    const k = findingKey(f);
    if (!before.has(k) && !seen.has(k) && isChange(f, k)) added.push(f);
    seen.add(k);
  }
  const fixed: Finding[] = [];
  seen.clear();
  for (const f of base) {
    const k = findingKey(f);
    if (!after.has(k) && !seen.has(k) && isChange(f, k)) fixed.push(f);
    seen.add(k);
  }
  let unchanged = carried.size;
  for (const k of after) if (before.has(k)) unchanged++;
  return { new: added, fixed, unchanged };
}

/**
 * The diff of two scans' reports (`base` null for a project's first scan): their findings, with the supply-chain
 * findings either scan could not compute as unknown. What a project scan's `diff` answers.
 */
export function diffReports(
  base: Pick<ScanReport, "packages"> | null,
  current: Pick<ScanReport, "packages">,
): FindingsDiff {
  return diffOfReports(base, current).diff;
}

/** diffReports, with the current scan's findings it was made from (a project scan's summary counts them). */
export function diffOfReports(
  base: Pick<ScanReport, "packages"> | null,
  current: Pick<ScanReport, "packages">,
): { diff: FindingsDiff; findings: Finding[] } {
  const unknown = new Set([...packagesWithoutSupplyChain(current), ...(base ? packagesWithoutSupplyChain(base) : [])]);
  const findings = findingsOf(current);
  return { diff: diffFindings(base ? findingsOf(base) : [], findings, unknown), findings };
}
