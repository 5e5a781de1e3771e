// Evaluates OSV "affected" entries against one exact version, following the evaluation algorithm of the OSV
// schema: events of a range are applied in version order; "introduced" opens an affected interval, "fixed"
// closes it at that version, "last_affected" closes it after that version, and "limit" bounds the range from
// above. The explicit "versions" list is authoritative as well (it is how GIT ranges reach package versions).
import type { OsvAffected, OsvEvent, OsvRange } from "../providers/packages/osv-types";
import { compareVersions, UnparseableVersionError, type Ecosystem } from "./versions";

export type RangeVerdict = {
  /** true/false when decided; null when the data cannot decide (only GIT commit ranges, unparseable bounds). */
  affected: boolean | null;
  /** Human-readable descriptions of the ranges (or the versions list) that include the version. */
  matchedRanges: string[];
  /** The lowest fixed version above the selected version among the ranges that include it. */
  nearestFixedVersion: string | null;
};

const isZero = (v: string) => v === "0";

function eventVersion(e: OsvEvent): string {
  return e.introduced ?? e.fixed ?? e.last_affected ?? e.limit ?? "0";
}

function sortEvents(eco: Ecosystem, events: OsvEvent[]): OsvEvent[] {
  return [...events].sort((a, b) => {
    const va = eventVersion(a);
    const vb = eventVersion(b);
    if (isZero(va) || isZero(vb)) return isZero(va) === isZero(vb) ? 0 : isZero(va) ? -1 : 1;
    if (va === "*" || vb === "*") return va === vb ? 0 : va === "*" ? 1 : -1;
    return compareVersions(eco, va, vb);
  });
}

/** Whether one SEMVER or ECOSYSTEM range includes the version. Throws UnparseableVersionError. */
export function rangeIncludes(eco: Ecosystem, range: OsvRange, version: string): boolean {
  const cmp = (a: string, b: string) => compareVersions(eco, a, b);
  const limits = range.events.filter((e) => e.limit !== undefined).map((e) => e.limit!);
  if (limits.length && !limits.some((l) => l === "*" || cmp(version, l) < 0)) return false;
  let affected = false;
  for (const e of sortEvents(eco, range.events)) {
    if (e.introduced !== undefined) {
      if (isZero(e.introduced) || cmp(version, e.introduced) >= 0) affected = true;
    } else if (e.fixed !== undefined) {
      if (cmp(version, e.fixed) >= 0) affected = false;
    } else if (e.last_affected !== undefined) {
      if (cmp(version, e.last_affected) > 0) affected = false;
    }
  }
  return affected;
}

/** Renders a range as npm-style interval strings, one per introduced event: ">=1.0.0 <1.2.3", "<=2.0.0". */
export function describeRange(eco: Ecosystem, range: OsvRange): string[] {
  if (range.type === "GIT") {
    return range.events.map((e) => {
      const [kind, value] = Object.entries(e)[0] ?? ["event", "?"];
      return `git ${range.repo ?? ""} ${kind} ${value}`.replace(/\s+/g, " ").trim();
    });
  }
  let events: OsvEvent[];
  try {
    events = sortEvents(eco, range.events);
  } catch (err) {
    if (!(err instanceof UnparseableVersionError)) throw err;
    events = range.events;
  }
  const out: string[] = [];
  let open: string | null = null;
  for (const e of events) {
    if (e.introduced !== undefined) {
      if (open !== null) out.push(open);
      open = isZero(e.introduced) ? "" : `>=${e.introduced}`;
    } else if (open !== null && (e.fixed !== undefined || e.last_affected !== undefined)) {
      const upper = e.fixed !== undefined ? `<${e.fixed}` : `<=${e.last_affected}`;
      out.push(open ? `${open} ${upper}` : upper);
      open = null;
    }
  }
  if (open !== null) out.push(open || ">=0");
  return out;
}

export function fixedVersionsOf(affected: OsvAffected): string[] {
  const fixed = new Set<string>();
  for (const r of affected.ranges ?? []) {
    if (r.type === "GIT") continue;
    for (const e of r.events) if (e.fixed !== undefined) fixed.add(e.fixed);
  }
  return [...fixed];
}

/** Decides whether the version is affected by any of the package's affected entries. */
export function evaluateAffected(eco: Ecosystem, entries: OsvAffected[], version: string): RangeVerdict {
  const matched: string[] = [];
  const fixedCandidates: string[] = [];
  let undecided = false;
  let affected = false;
  for (const entry of entries) {
    if (entry.versions?.includes(version)) {
      affected = true;
      matched.push(`versions list includes ${version}`);
    }
    for (const range of entry.ranges ?? []) {
      if (range.type !== "SEMVER" && range.type !== "ECOSYSTEM") {
        if (!entry.versions?.length) undecided = true;
        continue;
      }
      try {
        if (!rangeIncludes(eco, range, version)) continue;
      } catch (err) {
        if (err instanceof UnparseableVersionError) {
          undecided = true;
          continue;
        }
        throw err;
      }
      affected = true;
      matched.push(...describeRange(eco, range).filter((d) => intervalHolds(eco, d, version)));
      for (const e of range.events) if (e.fixed !== undefined) fixedCandidates.push(e.fixed);
    }
  }
  const nearestFixedVersion = affected ? lowestAbove(eco, fixedCandidates, version) : null;
  return {
    affected: affected ? true : undecided ? null : false,
    matchedRanges: [...new Set(matched)],
    nearestFixedVersion,
  };
}

/** Whether one rendered interval (">=a <b", "<=c", ">=0") holds for the version. */
function intervalHolds(eco: Ecosystem, interval: string, version: string): boolean {
  return interval.split(" ").every((part) => {
    const m = /^(>=|<=|<)(.+)$/.exec(part);
    if (!m) return true;
    if (m[2] === "0") return true;
    const c = compareVersions(eco, version, m[2]);
    return m[1] === ">=" ? c >= 0 : m[1] === "<=" ? c <= 0 : c < 0;
  });
}

function lowestAbove(eco: Ecosystem, candidates: string[], version: string): string | null {
  let best: string | null = null;
  for (const c of candidates) {
    try {
      if (compareVersions(eco, c, version) <= 0) continue;
      if (best === null || compareVersions(eco, c, best) < 0) best = c;
    } catch (err) {
      if (!(err instanceof UnparseableVersionError)) throw err;
    }
  }
  return best;
}
