// Pieces shared by the npm report and the multi-ecosystem report.
import { AppError } from "../errors";
import type { Fetched } from "../providers/packages/http";
import type { OsvVulnerability } from "../providers/packages/osv-types";
import type { Advisory } from "./advisories";
import { countBySeverity, highestSeverity, type Severity } from "./severity";

export const NO_ADVISORY_COPY =
  "An empty or short advisory list is not a security guarantee: it covers only vulnerabilities that have been " +
  "disclosed and published in the sources named in this report. Review the package and its dependencies yourself.";

export type Summary = {
  total: number;
  highest: Severity | "none";
  counts: Record<Severity, number>;
};

export function summarise(advisories: Advisory[]): Summary {
  const severities = advisories.map((a) => a.severity);
  return { total: advisories.length, highest: highestSeverity(severities), counts: countBySeverity(severities) };
}

/** An OSV record that reports a malicious release (id or alias in the MAL- namespace, the OpenSSF Malicious Packages feed). */
export function isMalwareReport(v: OsvVulnerability): boolean {
  return [v.id, ...(v.aliases ?? [])].some((id) => /^MAL-/i.test(id));
}

/**
 * How the package reports read a package's OSV records: withdrawn records are left out, and reports of malicious
 * releases are kept apart from the vulnerabilities, never counted among them. `setAside` holds the ids and aliases
 * (upper case) of both, so that the npm registry's bulk advisory of the same GHSA id brings neither back as an
 * advisory of its own (filter the registry's advisories with `fromRegistry`).
 */
export function sortOsvRecords(records: OsvVulnerability[]) {
  const current = records.filter((v) => !v.withdrawn);
  const setAside = new Set(
    records
      .filter((v) => v.withdrawn || isMalwareReport(v))
      .flatMap((v) => [v.id, ...(v.aliases ?? [])].map((id) => id.toUpperCase())),
  );
  return {
    vulnerabilities: current.filter((v) => !isMalwareReport(v)),
    malware: current.filter(isMalwareReport),
    fromRegistry: (advisories: Advisory[]) => advisories.filter((a) => !setAside.has(a.id.toUpperCase())),
  };
}

/** The public advisory fields (the spec's list), without the internal verdict function and source list. */
export function publicAdvisory(a: Advisory) {
  return {
    id: a.id,
    aliases: a.aliases,
    title: a.title,
    severity: a.severity,
    publishedAt: a.publishedAt,
    modifiedAt: a.modifiedAt,
    affectedRanges: a.affectedRanges,
    fixedVersions: a.fixedVersions,
    references: a.references,
  };
}

/** A source's name (registry.ts REGISTRY_NAME, "the OSV advisory database") at the start of a sentence. */
export const sentence = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * The value of a source that must answer, or 503 naming it (its units are reserved first and given back with the
 * 503). `name` is the source as a sentence names it, its article included ("the OSV advisory database", "PyPI").
 */
export function requireSource<T>(r: Fetched<T>, name: string): Extract<Fetched<T>, { kind: "ok" }> {
  if (r.kind === "ok") return r;
  const why = r.kind === "unavailable" ? r.reason : "answered not found";
  throw new AppError("UPSTREAM_UNAVAILABLE", `${sentence(name)} is unavailable (${why}); try again in a moment.`);
}

/** The seven full days before today (UTC), the window the download-count service calls "last week". */
export function lastWeekWindow(now = new Date()): { start: string; end: string } {
  const day = 86_400_000;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
  return { start: iso(today - 7 * day), end: iso(today - day) };
}
