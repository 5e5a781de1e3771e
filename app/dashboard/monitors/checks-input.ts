// The form's check options as text (record types, selectors, packages one per line) and back to the API's checks.
import type { CheckType } from "../../../server/monitors/checks/types";
import type { MonitorCheck } from "../../../server/monitors/schemas";

/** A check as stored and read back (ecosystems as plain strings). */
export interface FormCheck {
  type: CheckType;
  record_types?: string[];
  selectors?: string[];
  packages?: { ecosystem: string; name: string; version: string }[];
}

export interface CheckOptionsText {
  recordTypes: string;
  selectors: string;
  packages: string;
}

const words = (s: string) =>
  s
    .split(/[\s,]+/)
    .map((w) => w.trim())
    .filter(Boolean);

/** "npm lodash 4.17.20" a line. */
export function parsePackages(text: string) {
  return text
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((p) => p.length >= 3)
    .map(([ecosystem, name, version]) => ({ ecosystem, name, version }));
}

export function toChecks(types: CheckType[], o: CheckOptionsText): MonitorCheck[] {
  return types.map((type) => {
    if (type === "dns" && words(o.recordTypes).length) return { type, record_types: words(o.recordTypes) };
    if (type === "email_security" && words(o.selectors).length) return { type, selectors: words(o.selectors) };
    // The ecosystem is checked by the API, which answers a wrong one in words.
    if (type === "packages") return { type, packages: parsePackages(o.packages) as MonitorCheck["packages"] };
    return { type };
  });
}

export function fromChecks(checks: FormCheck[]): CheckOptionsText {
  const of = (t: string) => checks.find((c) => c.type === t);
  return {
    recordTypes: (of("dns")?.record_types ?? ["A", "AAAA", "MX", "NS"]).join(", "),
    selectors: (of("email_security")?.selectors ?? []).join(", "),
    packages: (of("packages")?.packages ?? []).map((p) => `${p.ecosystem} ${p.name} ${p.version}`).join("\n"),
  };
}
