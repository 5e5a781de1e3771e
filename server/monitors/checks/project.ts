// project: the target names a project of the workspace (POST /vulnerabilities/scan?project=); each run scans its
// latest default-ref package list again, without a new upload, against the sources as they are now (advisories,
// malware reports, KEV, EPSS, registry facts). The list goes to the scan procedure as a CycloneDX SBOM of package
// URLs, so the run is the same metered lookup as an upload, one unit per package version, recorded in lookup history.
// The state is the scan's findings by identity (server/projects/findings.ts) and the packages whose registry did not
// answer (`unavailable`); alerts are per finding (./types.ts `perFinding`, ../finding-alerts.ts), compared as a
// project's diff compares two scans (diffFindings): a registry outage neither resolves a package's supply-chain
// findings nor makes them new when it ends. A run whose registry failed for a package keeps that package's
// supply-chain findings as the previous run knew them (`keep`), so what really changes during an outage is alerted
// on the first run after it.
import { PackageURL } from "packageurl-js";
import { AppError } from "../../errors";
import {
  findingKey,
  findingsOf,
  isUncomputed,
  packagesWithoutSupplyChain,
  type Finding,
} from "../../projects/findings";
import { DEFAULT_REF } from "../../projects/names";
import { latestDefaultPackages, type StoredPackage } from "../../projects/store";
import type { ScanReport } from "../../vulnerabilities/lockfile-scan/schemas";
import { worst, type CheckSpec, type Severity } from "./types";

const PURL_TYPE = { npm: "npm", pypi: "pypi", composer: "composer", maven: "maven", go: "golang" } as const;

/** The package URL of a stored package version (the inverse of the SBOM reader's readPurl). */
function purlOf(p: StoredPackage): string {
  const split = (sep: string) => {
    const at = p.name.lastIndexOf(sep);
    return at > 0 ? [p.name.slice(0, at), p.name.slice(at + 1)] : [null, p.name];
  };
  const [namespace, name] = p.ecosystem === "maven" ? split(":") : p.ecosystem === "pypi" ? [null, p.name] : split("/");
  return new PackageURL(PURL_TYPE[p.ecosystem], namespace, name!, p.version, null, null).toString();
}

/** A package list as the CycloneDX JSON the scan reads, naming the project and ref it describes (lookup history). */
export function cycloneDxOf(packages: StoredPackage[], subject?: { project: string; ref: string }): string {
  return JSON.stringify({
    bomFormat: "CycloneDX",
    specVersion: "1.5",
    ...(subject
      ? { metadata: { component: { type: "application", name: subject.project, version: subject.ref } } }
      : {}),
    components: packages.map((p) => ({ type: "library", name: p.name, version: p.version, purl: purlOf(p) })),
  });
}

/** A finding's name in the check's state: `npm:tinted-logs malware MAL-2026-0101`. */
export const stateKey = (f: Finding) => {
  const [eco, name, kind, id] = findingKey(f).split("\u0000");
  return `${eco}:${name} ${kind}${id ? ` ${id}` : ""}`;
};

const SEVERITY: Record<string, Severity> = { critical: "critical", high: "critical", moderate: "warning" };

/**
 * The check's state: `findings` by stateKey, and `unavailable`, the packages (`npm:jquery`) whose supply-chain
 * findings no run has computed yet because their registry did not answer, or (`npm:expresss typosquat`) whose
 * typosquat check could not be done (server/projects/findings.ts packagesWithoutSupplyChain).
 */
export interface ProjectState {
  findings: Record<string, Finding>;
  unavailable: string[];
}

function projectState(findings: Iterable<Finding>, unavailable: string[]) {
  const state: Record<string, Finding> = {};
  const all = [...findings];
  for (const f of all) state[stateKey(f)] ??= f;
  const severity = worst("ok", ...all.map((f) => SEVERITY[f.severity] ?? "ok"));
  return { state: { findings: state, unavailable: [...unavailable].sort() } satisfies ProjectState, severity };
}

/** A stored state's parts (a state stored before `unavailable` existed has none). */
const partsOf = (state: Record<string, unknown> | undefined) => ({
  findings: ((state?.findings ?? {}) as Record<string, Finding>) ?? {},
  unavailable: new Set((state?.unavailable as string[] | undefined) ?? []),
});

export const projectCheck: CheckSpec = {
  type: "project",
  about:
    "project (alone; the target is the name of a project scanned with POST /vulnerabilities/scan?project=): its latest scan of the `default` ref is scanned again against the sources as they are now, one unit per package version; a finding the previous run did not have (malware report, advisory, supply-chain finding) is a `monitor.alert` with the package, version, what was found and the fixed version, and its `monitor.resolved` follows on the first run without it (the first run is the baseline); a run in which the registry did not answer for a package keeps that package's supply-chain findings as the previous run had them, so a registry outage neither resolves them nor raises them again (advisories and malware reports count as usual)",
  needsName: false,
  targetFree: true,
  perFinding: true,
  procedure: "vulnerabilities.scan",
  calls: () => [],
  async prepare(db, { workspaceId, target }) {
    const latest = await latestDefaultPackages(db, workspaceId, target);
    if (!latest)
      throw new AppError(
        "NOT_FOUND",
        `Project ${target} has no stored scan of its default ref; scan it with POST /vulnerabilities/scan?project=${target}.`,
      );
    return {
      inputs: [{ lockfile: cycloneDxOf(latest.packages, { project: target, ref: DEFAULT_REF }), format: "cyclonedx" }],
      units: latest.packages.length,
    };
  },
  state(answers: ScanReport[]) {
    const report = answers[0];
    return projectState(report ? findingsOf(report) : [], report ? [...packagesWithoutSupplyChain(report)] : []);
  },
  keep(previous, current) {
    const now = partsOf(current.state);
    if (!previous || now.unavailable.size === 0) return current;
    const before = partsOf(previous.state);
    // The previous run knew a package's supply-chain findings unless its registry had not answered there either.
    const carried = Object.values(before.findings).filter(
      (f) => isUncomputed(f, now.unavailable) && !isUncomputed(f, before.unavailable),
    );
    const stillUnknown = [...now.unavailable].filter((p) => before.unavailable.has(p));
    return projectState([...Object.values(now.findings), ...carried], stillUnknown);
  },
};
