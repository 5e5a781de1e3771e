// The dependency scan of `POST /v1/vulnerabilities/scan`: every distinct package version of a lockfile or SBOM with
// its exact-version verdict. OSV's batch query (one call per 1,000 versions) and the registry documents (one per
// package, bounded concurrency) run side by side; EPSS follows OSV for the CVEs found. OSV is required (503 without it:
// a scan without advisories would read as clean); a registry or EPSS that fails costs only its own evidence.
import { AppError } from "../../errors";
import { lookupEpss } from "../../providers/epss";
import { queryOsvVersions } from "../../providers/packages/osv-batch";
import type { ParsedLockfile } from "../lockfiles/types";
import { NO_ADVISORY_COPY } from "../report-common";
import { OSV_ECOSYSTEM, type Ecosystem } from "../versions";
import { packageVerdict } from "../verdict";
import { advisoryFacts, advisoryRows, cvesOf, smallestFix } from "./advisory-evidence";
import { fetchRegistryFacts, nameKey, versionFindings, type RegistryFacts } from "./registry-facts";
import type { ScannedPackage, ScanReport } from "./schemas";
import { scanSources } from "./sources";
import { comparePackages, summarise } from "./summary";

/** OSV's spelling of a package name: Composer names are lower case there (as the package report asks). */
const osvName = (eco: Ecosystem, name: string) => (eco === "composer" ? name.toLowerCase() : name);

export async function scanLockfileOrThrow(lockfile: ParsedLockfile, now = new Date()): Promise<ScanReport> {
  const { packages } = lockfile;
  // EPSS needs only OSV's answer, so it follows OSV while the registry documents are still arriving.
  const query = packages.map((p) => ({
    ecosystem: OSV_ECOSYSTEM[p.ecosystem],
    name: osvName(p.ecosystem, p.name),
    version: p.version,
  }));
  const advisoriesP = queryOsvVersions(query).then(async (osv) => {
    if (osv.kind !== "ok") return { osv, facts: [], cves: new Set<string>(), epss: null };
    const facts = packages.map((p, i) => advisoryFacts(p.ecosystem, p.name, p.version, osv.value[i]!));
    const cves = new Set(facts.flatMap((f) => f.affecting.flatMap((r) => cvesOf(r.advisory))));
    return { osv, facts, cves, epss: await lookupEpss(cves) };
  });
  const [{ osv, facts, cves, epss }, registry] = await Promise.all([advisoriesP, fetchRegistryFacts(packages)]);
  if (osv.kind !== "ok" || !epss)
    throw new AppError(
      "UPSTREAM_UNAVAILABLE",
      `The OSV advisory database is unavailable (${osv.kind !== "ok" ? osv.reason : "no answer"}); try again in a moment.`,
    );

  const scanned: ScannedPackage[] = packages.map((p, i) => {
    const f = facts[i]!;
    const { advisories, kev } = advisoryRows(f, epss);
    const {
      findings,
      registry: registryStatus,
      typosquatCheck,
    } = versionFindings(p, registry.get(nameKey(p.ecosystem, p.name)), now);
    const malware = f.malwareReports.length > 0;
    return {
      ecosystem: p.ecosystem,
      name: p.name,
      version: p.version,
      line: p.line,
      dev: p.dev,
      verdict: packageVerdict({
        malware,
        advisories: advisories.map((a) => ({ id: a.id, severity: a.severity, kev: a.kev, epss: a.epss?.epss ?? null })),
        findings,
      }),
      malware,
      malwareReports: f.malwareReports,
      advisories,
      kev,
      findings,
      fixedIn: smallestFix(p.ecosystem, p.version, f),
      registry: registryStatus,
      typosquatCheck,
    };
  });
  scanned.sort(comparePackages);

  const byEcosystem = new Map<Ecosystem, RegistryFacts[]>();
  for (const [key, value] of registry) {
    const eco = key.split("\u0000")[0] as Ecosystem;
    const list = byEcosystem.get(eco) ?? [];
    list.push(value);
    byEcosystem.set(eco, list);
  }
  return {
    format: lockfile.format,
    packages: scanned,
    skipped: lockfile.skipped,
    summary: summarise(scanned),
    sources: scanSources({ osv, epss, cveCount: cves.size, registries: byEcosystem }),
    checkedAt: now.toISOString(),
    noAdvisoryCopy: NO_ADVISORY_COPY,
  };
}
