// Turns source records into the report's advisory shape, one ecosystem's package at a time: OSV records (the
// primary source) and, for npm, the registry's bulk advisories, merged by alias so one vulnerability is listed
// once whichever sources know it.
import semver from "semver";
import type { NpmBulkAdvisory } from "../providers/packages/npm-registry";
import type { OsvAffected, OsvVulnerability } from "../providers/packages/osv-types";
import { describeRange, evaluateAffected, fixedVersionsOf, type RangeVerdict } from "./osv-ranges";
import { severityFromLabel, severityOfOsv, severityRank, type Severity } from "./severity";
import { compareVersions, OSV_ECOSYSTEM, sortVersions, type Ecosystem } from "./versions";

export type Advisory = {
  id: string;
  aliases: string[];
  title: string;
  severity: Severity;
  publishedAt: string | null;
  modifiedAt: string | null;
  affectedRanges: string[];
  fixedVersions: string[];
  references: string[];
  /** Which sources list this advisory: "osv", "npm". */
  sources: string[];
  /** Exact verdict for one version of the package. */
  verdictFor(version: string): RangeVerdict;
};

/** Package names as each ecosystem compares them (PEP 503 for PyPI; Composer names are lower case). */
export function samePackage(eco: Ecosystem, a: string, b: string): boolean {
  if (eco === "pypi") return a.toLowerCase().replace(/[-_.]+/g, "-") === b.toLowerCase().replace(/[-_.]+/g, "-");
  if (eco === "composer") return a.toLowerCase() === b.toLowerCase();
  return a === b;
}

function titleOf(v: OsvVulnerability): string {
  if (v.summary?.trim()) return v.summary.trim();
  const firstLine = v.details?.trim().split("\n")[0]?.trim();
  if (firstLine) return firstLine.length > 200 ? `${firstLine.slice(0, 197)}...` : firstLine;
  return v.id;
}

function sortedUnique(eco: Ecosystem, versions: string[]): string[] {
  const valid = sortVersions(eco, versions);
  const invalid = [...new Set(versions)].filter((v) => !valid.includes(v));
  return [...valid, ...invalid];
}

export function advisoryFromOsv(eco: Ecosystem, packageName: string, v: OsvVulnerability): Advisory {
  const entries: OsvAffected[] = (v.affected ?? []).filter(
    (a) => a.package?.ecosystem.split(":")[0] === OSV_ECOSYSTEM[eco] && samePackage(eco, a.package.name, packageName),
  );
  const ranges = entries.flatMap((a) => {
    const described = (a.ranges ?? []).flatMap((r) => describeRange(eco, r));
    return described.length ? described : (a.versions ?? []).map((x) => `=${x}`);
  });
  return {
    id: v.id,
    aliases: [...new Set(v.aliases ?? [])],
    title: titleOf(v),
    severity: severityOfOsv(v),
    publishedAt: v.published ?? null,
    modifiedAt: v.modified ?? null,
    affectedRanges: [...new Set(ranges)],
    fixedVersions: sortedUnique(eco, entries.flatMap(fixedVersionsOf)),
    references: [...new Set((v.references ?? []).map((r) => r.url).filter(Boolean))],
    sources: ["osv"],
    verdictFor: (version) => evaluateAffected(eco, entries, version),
  };
}

const GHSA_IN_URL = /\/(GHSA(?:-[23456789cfghjmpqrvwx]{4}){3})\b/i;

/** Versions at which a vulnerable run of published versions ends: the fixes the registry actually published. */
function fixedFromRange(range: string, publishedVersions: string[]): string[] {
  const fixed: string[] = [];
  let prevVulnerable = false;
  for (const v of sortVersions("npm", publishedVersions)) {
    const vulnerable = semver.satisfies(v, range, { includePrerelease: true });
    if (prevVulnerable && !vulnerable && !semver.prerelease(v)) fixed.push(v);
    if (!semver.prerelease(v) || vulnerable) prevVulnerable = vulnerable;
  }
  return fixed;
}

export function advisoryFromNpm(a: NpmBulkAdvisory, publishedVersions: string[]): Advisory {
  const m = GHSA_IN_URL.exec(a.url ?? "")?.[1];
  // GitHub writes advisory ids as "GHSA-" plus lower-case groups, as OSV does.
  const ghsa = m ? `GHSA${m.slice(4).toLowerCase()}` : null;
  const range = a.vulnerable_versions;
  const fixedVersions = fixedFromRange(range, publishedVersions);
  return {
    id: ghsa ?? `NPM-${a.id}`,
    aliases: [],
    title: a.title,
    severity: severityFromLabel(a.severity) ?? "unknown",
    publishedAt: null,
    modifiedAt: null,
    affectedRanges: [range],
    fixedVersions,
    references: a.url ? [a.url] : [],
    sources: ["npm"],
    verdictFor: (version) => {
      const affected = semver.satisfies(version, range, { includePrerelease: true });
      const fixed = fixedVersions.filter((f) => compareVersions("npm", f, version) > 0);
      return {
        affected,
        matchedRanges: affected ? [range] : [],
        nearestFixedVersion: affected ? (fixed[0] ?? null) : null,
      };
    },
  };
}

/**
 * OSV records first; an npm advisory whose GHSA id (from its URL) is an OSV record's id or alias confirms that
 * record (and supplies a severity when OSV has none), otherwise it is listed on its own.
 */
export function mergeAdvisories(osv: Advisory[], npm: Advisory[]): Advisory[] {
  const byKey = new Map<string, Advisory>();
  for (const a of osv) for (const key of [a.id, ...a.aliases]) byKey.set(key.toUpperCase(), a);
  const out = [...osv];
  for (const n of npm) {
    const match = byKey.get(n.id.toUpperCase());
    if (match) {
      if (!match.sources.includes("npm")) match.sources.push("npm");
      if (match.severity === "unknown") match.severity = n.severity;
    } else {
      out.push(n);
      byKey.set(n.id.toUpperCase(), n);
    }
  }
  return out;
}

/** Most severe first, then newest, then by id, so pages are stable. */
export function compareAdvisories(a: Advisory, b: Advisory): number {
  const s = severityRank(b.severity) - severityRank(a.severity);
  if (s !== 0) return s;
  const pa = a.publishedAt ?? "";
  const pb = b.publishedAt ?? "";
  if (pa !== pb) return pa < pb ? 1 : -1;
  return a.id.localeCompare(b.id);
}
