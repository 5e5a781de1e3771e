// `GET /vulnerabilities/cve/{cveId}/`: the OSV records for a CVE identifier (the CVE record itself and every
// record that aliases it, across ecosystems) and its exact entry in the known-exploited catalog.
import { AppError } from "../errors";
import { getOsvVulnerability, osvVulnUrl } from "../providers/packages/osv";
import type { OsvVulnerability } from "../providers/packages/osv-types";
import { CVE_ID_PATTERN } from "./coordinates";
import { findKevEntry, kevCatalogInfo, type KevCatalogInfo, type KevEntry } from "./kev-catalog";
import { describeRange, fixedVersionsOf } from "./osv-ranges";
import { severityOfOsv, type Severity } from "./severity";
import { ecosystemFromOsv } from "./versions";

export type CveAdvisory = {
  id: string;
  aliases: string[];
  title: string;
  severity: Severity;
  publishedAt: string | null;
  modifiedAt: string | null;
  withdrawnAt: string | null;
  affected: Array<{ ecosystem: string; package: string; affectedRanges: string[]; fixedVersions: string[] }>;
  references: string[];
};

export type CveReport = {
  cveId: string;
  /** null when the advisory source could not answer; `advisoriesUnavailableReason` says why. */
  advisories: CveAdvisory[] | null;
  advisoriesUnavailableReason: string | null;
  knownExploited: KevEntry | null;
  knownExploitedCatalog: Pick<KevCatalogInfo, "version" | "releasedAt" | "partial" | "origin">;
  sources: { osv: string; kev: string | null };
  checkedAt: string;
};

function toCveAdvisory(v: OsvVulnerability): CveAdvisory {
  return {
    id: v.id,
    aliases: v.aliases ?? [],
    title: v.summary?.trim() || v.details?.trim().split("\n")[0]?.slice(0, 200) || v.id,
    severity: severityOfOsv(v),
    publishedAt: v.published ?? null,
    modifiedAt: v.modified ?? null,
    withdrawnAt: v.withdrawn ?? null,
    affected: (v.affected ?? []).map((a) => {
      const eco = ecosystemFromOsv(a.package?.ecosystem.split(":")[0] ?? "");
      // Ranges of ecosystems the service does not order (Debian, crates.io, ...) are shown by their raw events.
      const ranges = (a.ranges ?? []).flatMap((r) =>
        eco
          ? describeRange(eco, r)
          : r.events.map((e) =>
              Object.entries(e)
                .map(([k, x]) => `${k} ${x}`)
                .join(" "),
            ),
      );
      return {
        ecosystem: a.package?.ecosystem ?? "",
        package: a.package?.name ?? "",
        affectedRanges: ranges.length ? ranges : (a.versions ?? []).map((x) => `=${x}`),
        fixedVersions: fixedVersionsOf(a),
      };
    }),
    references: [...new Set((v.references ?? []).map((r) => r.url))],
  };
}

type AdvisoryLookup = { kind: "ok"; records: OsvVulnerability[] } | { kind: "unavailable"; reason: string };

/** OSV's record for the CVE and every record it aliases; unavailable when any of them cannot be fetched. */
async function advisoriesOf(cveId: string): Promise<AdvisoryLookup> {
  const primary = await getOsvVulnerability(cveId);
  if (primary.kind === "unavailable") return { kind: "unavailable", reason: primary.reason };
  if (primary.kind !== "ok") return { kind: "ok", records: [] };
  const records: OsvVulnerability[] = [primary.value];
  const others = [...new Set(primary.value.aliases ?? [])].filter((id) => id.toUpperCase() !== cveId);
  for (const f of await Promise.all(others.map((id) => getOsvVulnerability(id)))) {
    if (f.kind === "ok") records.push(f.value);
    else if (f.kind === "unavailable") return { kind: "unavailable", reason: f.reason };
  }
  return { kind: "ok", records };
}

/**
 * 404 CVE_NOT_FOUND when neither OSV nor the catalog knows the identifier. When OSV cannot answer, the catalog half
 * still answers (spec, Errors rule 3): 200 with `advisories: null` and the reason; 503 only when the catalog has no
 * entry either, since then neither part can be given.
 */
export async function getCveOrThrow(rawId: string): Promise<CveReport> {
  const cveId = rawId.trim().toUpperCase();
  if (!CVE_ID_PATTERN.test(cveId))
    throw new AppError("INVALID_REQUEST", "Expected a CVE identifier such as CVE-2021-44228.");
  const osv = await advisoriesOf(cveId);
  const kev = findKevEntry(cveId);
  if (osv.kind === "unavailable" && !kev) {
    throw new AppError(
      "UPSTREAM_UNAVAILABLE",
      `The OSV advisory database is unavailable (${osv.reason}) and ${cveId} is not in the known-exploited catalog; try again in a moment.`,
    );
  }
  if (osv.kind === "ok" && osv.records.length === 0 && !kev)
    throw new AppError("CVE_NOT_FOUND", `No source knows ${cveId}.`);
  const info = kevCatalogInfo();
  return {
    cveId,
    advisories: osv.kind === "ok" ? osv.records.map(toCveAdvisory) : null,
    advisoriesUnavailableReason:
      osv.kind === "ok"
        ? null
        : `The OSV advisory database is unavailable (${osv.reason}); the known-exploited entry below is from the local catalog. Retry later for the advisories.`,
    knownExploited: kev,
    knownExploitedCatalog: {
      version: info.version,
      releasedAt: info.releasedAt,
      partial: info.partial,
      origin: info.origin,
    },
    sources: { osv: osvVulnUrl(cveId), kev: info.sourceUrl },
    checkedAt: new Date().toISOString(),
  };
}
