// One scanned package version's advisory evidence from the OSV records listed for it: the exact-version verdict of
// each advisory (as the package report decides it), malware reports (OSV MAL-, the OpenSSF Malicious Packages feed)
// kept apart from the vulnerabilities, withdrawn records left out, known-exploited CVEs, EPSS beside each CVE, and
// the smallest version that fixes every affecting advisory.
import type { EpssLookup } from "../../providers/epss";
import type { OsvVulnerability } from "../../providers/packages/osv-types";
import { advisoryFromOsv, compareAdvisories, type Advisory } from "../advisories";
import { findKevEntry } from "../kev-catalog";
import { compareVersions, sortVersions, type Ecosystem } from "../versions";
import type { ScannedPackage } from "./schemas";

type ScanAdvisory = ScannedPackage["advisories"][number];
type KevMatch = ScannedPackage["kev"][number];

/** A report of a malicious release: its id or an alias is in OSV's MAL- namespace. */
export function isMalwareReport(v: OsvVulnerability): boolean {
  return [v.id, ...(v.aliases ?? [])].some((id) => /^MAL-/i.test(id));
}

export const cvesOf = (a: { id: string; aliases: string[] }): string[] => [
  ...new Set([a.id, ...a.aliases].filter((id) => /^CVE-\d{4}-\d+$/i.test(id)).map((id) => id.toUpperCase())),
];

/** What the OSV records say about one version, before EPSS is known. */
export type AdvisoryFacts = {
  malwareReports: ScannedPackage["malwareReports"];
  /** Advisories OSV lists for the version that its ranges do not rule out, most severe first. */
  affecting: Array<{ advisory: Advisory; affected: boolean | null; nearestFixedVersion: string | null }>;
};

export function advisoryFacts(
  eco: Ecosystem,
  name: string,
  version: string,
  records: OsvVulnerability[],
): AdvisoryFacts {
  const current = records.filter((v) => !v.withdrawn);
  const malwareReports = current.filter(isMalwareReport).flatMap((v) => {
    const a = advisoryFromOsv(eco, name, v);
    // A report naming other versions of the package is not about this one.
    if (a.verdictFor(version).affected === false) return [];
    return [
      {
        id: a.id,
        aliases: a.aliases,
        summary: a.title,
        publishedAt: a.publishedAt,
        modifiedAt: a.modifiedAt,
        affectedRanges: a.affectedRanges,
      },
    ];
  });
  const affecting = current
    .filter((v) => !isMalwareReport(v))
    .map((v) => advisoryFromOsv(eco, name, v))
    .flatMap((advisory) => {
      const verdict = advisory.verdictFor(version);
      return verdict.affected === false
        ? []
        : [{ advisory, affected: verdict.affected, nearestFixedVersion: verdict.nearestFixedVersion }];
    })
    .sort((x, y) => compareAdvisories(x.advisory, y.advisory));
  return { malwareReports, affecting };
}

/** The scan's advisory rows, with KEV and EPSS beside each CVE, and the package's KEV matches. */
export function advisoryRows(facts: AdvisoryFacts, epss: EpssLookup): { advisories: ScanAdvisory[]; kev: KevMatch[] } {
  const kevByCve = new Map<string, KevMatch>();
  const advisories = facts.affecting.map(({ advisory: a, affected, nearestFixedVersion }) => {
    const cves = cvesOf(a);
    let listed = false;
    for (const cve of cves) {
      const e = findKevEntry(cve);
      if (!e) continue;
      listed = true;
      const hit = kevByCve.get(e.cveId) ?? {
        cveId: e.cveId,
        vendorProject: e.vendorProject,
        product: e.product,
        vulnerabilityName: e.vulnerabilityName,
        dateAdded: e.dateAdded,
        dueDate: e.dueDate,
        requiredAction: e.requiredAction,
        knownRansomwareCampaignUse: e.knownRansomwareCampaignUse,
        advisoryIds: [],
      };
      hit.advisoryIds.push(a.id);
      kevByCve.set(e.cveId, hit);
    }
    let best: ScanAdvisory["epss"] = null;
    let epssReason: string | null = cves.length === 0 ? "the advisory names no CVE id" : null;
    for (const cve of cves) {
      const s = epss.scoreOf(cve);
      if (s.score && (!best || s.score.epss > best.epss)) best = s.score;
      else if (!s.score) epssReason ??= s.reason;
    }
    return {
      id: a.id,
      aliases: a.aliases,
      summary: a.title,
      severity: a.severity,
      affected,
      fixedVersions: a.fixedVersions,
      nearestFixedVersion,
      kev: listed,
      epss: best,
      epssReason: best ? null : epssReason,
    };
  });
  return { advisories, kev: [...kevByCve.values()] };
}

/**
 * The smallest version above the scanned one that no affecting advisory's ranges include, among the fixed versions
 * the advisories name; null when nothing affects the version or no named fix clears every advisory.
 */
export function smallestFix(eco: Ecosystem, version: string, facts: AdvisoryFacts): string | null {
  const decided = facts.affecting.filter((r) => r.affected === true).map((r) => r.advisory);
  if (decided.length === 0) return null;
  const above = (v: string) => {
    try {
      return compareVersions(eco, v, version) > 0;
    } catch {
      return false;
    }
  };
  const candidates = sortVersions(
    eco,
    decided.flatMap((a) => a.fixedVersions),
  ).filter(above);
  return candidates.find((c) => decided.every((a) => a.verdictFor(c).affected !== true)) ?? null;
}
