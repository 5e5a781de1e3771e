// The CI policy of service-scan: which findings fail a build. Malware fails every policy, since a malicious release
// is removed, never tolerated; advisories fail at or above the chosen severity. Supply-chain findings never fail it.
// Read either from the whole scan (its summary's counts) or, with --fail-on-new, from what the scan adds alone
// (diff.new), so a pull request fails on the advisories and malware it brings and not on those main already has.
// The rule itself is ./policy-rule.ts, which the service reads too.
import type { ScanSummary } from "./answer.js";
import { breachesOf, newBreaches, type FailOn } from "./policy-rule.js";

export { newBreaches };

/** What breaks the policy in the whole scan, in words; empty when the scan passes. */
export function policyBreaches(summary: ScanSummary, failOn: FailOn): string[] {
  const { malware, bySeverity } = summary;
  return breachesOf(malware, bySeverity.critical, bySeverity.high, failOn, "");
}

export function policyLine(failOn: FailOn, failOnNew: boolean, breaches: string[]): string {
  const policy = `policy --fail-on ${failOn}${failOnNew ? " --fail-on-new" : ""}`;
  return breaches.length ? `${policy}: failed (${breaches.join(", ")})` : `${policy}: passed`;
}
