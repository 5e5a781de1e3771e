// Which findings fail a build: the one rule, read by this command (./policy.ts) and by the service, which judges a
// project's scan sent with `fail_on_new` by it so that a scan whose new findings failed is never taken as a later
// scan's base (server/projects/store.ts). It lives in the command's own source for the reason ./project-name.ts does
// (the command is packed and installed alone), so this module imports nothing.

export const FAIL_ON = ["high", "critical", "malware"] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** What the rule reads of a finding of diff.new. */
export interface JudgedFinding {
  ecosystem: string;
  name: string;
  version: string;
  kind: string;
  severity: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Malware fails every policy; advisories fail at or above the chosen severity; supply-chain findings never do. */
export function breachesOf(malware: number, critical: number, high: number, failOn: FailOn, prefix: string): string[] {
  const breaches: string[] = [];
  if (malware > 0) breaches.push(plural(malware, `${prefix}malware package`, `${prefix}malware packages`));
  if (failOn !== "malware" && critical > 0)
    breaches.push(plural(critical, `${prefix}critical advisory`, `${prefix}critical advisories`));
  if (failOn === "high" && high > 0) breaches.push(plural(high, `${prefix}high advisory`, `${prefix}high advisories`));
  return breaches;
}

/** What breaks the policy among the findings a scan adds (diff.new): malware counted once per package version. */
export function newBreaches(added: JudgedFinding[], failOn: FailOn): string[] {
  const malware = new Set(
    added.filter((f) => f.kind === "malware").map((f) => `${f.ecosystem}:${f.name}@${f.version}`),
  );
  const advisories = added.filter((f) => f.kind === "advisory");
  const count = (severity: string) => advisories.filter((a) => a.severity === severity).length;
  return breachesOf(malware.size, count("critical"), count("high"), failOn, "new ");
}
