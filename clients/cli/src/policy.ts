// The CI policy of service-scan: which findings fail a build. Malware fails every policy, since a malicious release
// is removed, never tolerated; advisories fail at or above the chosen severity. Supply-chain findings never fail it.
// Read either from the whole scan (its summary's counts) or, with --fail-on-new, from what the scan adds alone
// (diff.new), so a pull request fails on the advisories and malware it brings and not on those main already has.
import type { FailOn } from "./args.js";
import type { ScanSummary } from "./answer.js";
import type { DiffFinding } from "./diff.js";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function breachesOf(malware: number, critical: number, high: number, failOn: FailOn, prefix: string): string[] {
  const breaches: string[] = [];
  if (malware > 0) breaches.push(plural(malware, `${prefix}malware package`, `${prefix}malware packages`));
  if (failOn !== "malware" && critical > 0)
    breaches.push(plural(critical, `${prefix}critical advisory`, `${prefix}critical advisories`));
  if (failOn === "high" && high > 0) breaches.push(plural(high, `${prefix}high advisory`, `${prefix}high advisories`));
  return breaches;
}

/** What breaks the policy in the whole scan, in words; empty when the scan passes. */
export function policyBreaches(summary: ScanSummary, failOn: FailOn): string[] {
  const { malware, bySeverity } = summary;
  return breachesOf(malware, bySeverity.critical, bySeverity.high, failOn, "");
}

/** What breaks the policy among the findings the scan adds (diff.new): malware counted once per package version. */
export function newBreaches(added: DiffFinding[], failOn: FailOn): string[] {
  const malware = new Set(
    added.filter((f) => f.kind === "malware").map((f) => `${f.ecosystem}:${f.name}@${f.version}`),
  );
  const advisories = added.filter((f) => f.kind === "advisory");
  const count = (severity: string) => advisories.filter((a) => a.severity === severity).length;
  return breachesOf(malware.size, count("critical"), count("high"), failOn, "new ");
}

export function policyLine(failOn: FailOn, failOnNew: boolean, breaches: string[]): string {
  const policy = `policy --fail-on ${failOn}${failOnNew ? " --fail-on-new" : ""}`;
  return breaches.length ? `${policy}: failed (${breaches.join(", ")})` : `${policy}: passed`;
}
