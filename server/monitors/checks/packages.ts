// packages: for each listed package version, the advisories that affect it and whether that release is
// reported as malware. Runs the package report (vulnerabilities.packageReport) once per package; the check
// costs one unit per run however many packages it lists (server/monitors/records.ts).
import { sorted, worst, type CheckSpec, type Severity } from "./types";

interface Report {
  package: { ecosystem: string; coordinate: string };
  version: { selected: string };
  malware: { selectedVersion: boolean };
  advisories: { id: string; severity: string; versionVerdict?: { affected: boolean | null } }[];
}

const ADVISORY: Record<string, Severity> = { critical: "critical", high: "critical", moderate: "warning" };

export const packagesCheck: CheckSpec = {
  type: "packages",
  about: "packages: advisories affecting each listed `packages` version and malware reports",
  needsName: false,
  targetFree: true,
  procedure: "vulnerabilities.packageReport",
  calls: (_t, o) =>
    (o.packages ?? []).map((p) => ({ ecosystem: p.ecosystem, coordinate: p.name, version: p.version, limit: 500 })),
  state(answers: Report[]) {
    const state: Record<string, { advisories: string[]; malware: boolean }> = {};
    const severities: Severity[] = [];
    for (const r of answers) {
      const affecting = r.advisories.filter((a) => a.versionVerdict?.affected === true);
      const malware = r.malware.selectedVersion;
      state[`${r.package.ecosystem}:${r.package.coordinate}@${r.version.selected}`] = {
        advisories: sorted(affecting.map((a) => a.id)),
        malware,
      };
      severities.push(malware ? "critical" : "ok", ...affecting.map((a) => ADVISORY[a.severity] ?? "ok"));
    }
    return { state, severity: worst(...severities) };
  },
};
