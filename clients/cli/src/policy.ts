// The CI policy of service-scan: which counts of a scan's summary fail a build. Malware fails every policy, since
// a malicious release is removed, never tolerated; advisories fail at or above the chosen severity.
import type { paths } from "../../typescript/src/index";
import type { FailOn } from "./args";

export type ScanAnswer = paths["/vulnerabilities/scan"]["post"]["responses"][200]["content"]["application/json"];
export type ScanSummary = ScanAnswer["summary"];

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What breaks the policy, in words; empty when the scan passes. */
export function policyBreaches(summary: ScanSummary, failOn: FailOn): string[] {
  const breaches: string[] = [];
  const { malware, bySeverity } = summary;
  if (malware > 0) breaches.push(plural(malware, "malware package", "malware packages"));
  if (failOn !== "malware" && bySeverity.critical > 0)
    breaches.push(plural(bySeverity.critical, "critical advisory", "critical advisories"));
  if (failOn === "high" && bySeverity.high > 0)
    breaches.push(plural(bySeverity.high, "high advisory", "high advisories"));
  return breaches;
}

export function policyLine(failOn: FailOn, breaches: string[]): string {
  return breaches.length
    ? `policy --fail-on ${failOn}: failed (${breaches.join(", ")})`
    : `policy --fail-on ${failOn}: passed`;
}
