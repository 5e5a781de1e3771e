// The monitor form's own check of what was typed, field by field, in the words of the form's labels, before anything
// is sent: the API would answer the same mistakes with schema paths ("thresholds.tls_expiry_days.0: Too small…",
// "checks.2: Invalid input"), which name neither the field nor the line at fault. The limits are the API's
// (server/monitors/schemas.ts).
import { DNS_RECORD_TYPES } from "../../../server/providers/dns/types";
import { ECOSYSTEMS } from "../../../server/vulnerabilities/versions/ecosystems";
import type { CheckType } from "../../../server/monitors/checks/types";
import { DKIM_SELECTOR } from "../../../server/email/security/selector";
import { MAX_PACKAGES, repeatedDays, repeatedDaysText, TLS_EXPIRY_DAYS } from "../../../server/monitors/limits";

export type MonitorField = "target" | "expiry" | "packages" | "recordTypes" | "selectors";
export type FieldProblems = Partial<Record<MonitorField, string>>;

const words = (s: string) => s.split(/[\s,]+/).filter(Boolean);
const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function expiryProblem(text: string): string | undefined {
  const days = words(text);
  if (days.length === 0) return undefined; // left empty, the default thresholds apply
  const { min, max, count } = TLS_EXPIRY_DAYS;
  const bad = days.filter((d) => !/^\d+$/.test(d) || Number(d) < min || Number(d) > max);
  if (bad.length)
    return `Days must be whole numbers from ${min} to ${max}, separated by commas (not ${bad.map((b) => `“${b}”`).join(", ")}).`;
  if (days.length > count) return `Give at most ${count} numbers of days.`;
  const repeated = repeatedDays(days.map(Number));
  if (repeated.length) return `${capitalized(repeatedDaysText(repeated))}.`;
  return undefined;
}

function packagesProblem(text: string): string | undefined {
  const lines = text.split("\n").map((l, i) => ({ n: i + 1, parts: l.trim().split(/\s+/).filter(Boolean) }));
  const given = lines.filter((l) => l.parts.length > 0);
  if (given.length === 0) return "Name at least one package, as ecosystem, name and version: npm lodash 4.17.20.";
  if (given.length > MAX_PACKAGES) return `Name at most ${MAX_PACKAGES} packages.`;
  const problems = given.flatMap(({ n, parts }) => {
    if (parts.length !== 3) return [`line ${n} needs an ecosystem, a name and a version, such as npm lodash 4.17.20`];
    if (!(ECOSYSTEMS as readonly string[]).includes(parts[0].toLowerCase()))
      return [`line ${n}: “${parts[0]}” is not one of ${ECOSYSTEMS.join(", ")}`];
    return [];
  });
  return problems.length ? `Packages: ${problems.join("; ")}.` : undefined;
}

function recordTypesProblem(text: string): string | undefined {
  const bad = words(text).filter((t) => !(DNS_RECORD_TYPES as readonly string[]).includes(t.toUpperCase()));
  return bad.length
    ? `Record types must be among ${DNS_RECORD_TYPES.join(", ")} (not ${bad.map((b) => `“${b}”`).join(", ")}).`
    : undefined;
}

function selectorsProblem(text: string): string | undefined {
  const bad = words(text).filter((s) => !DKIM_SELECTOR.test(s.toLowerCase()));
  return bad.length
    ? `DKIM selectors are letters, digits, - and _, such as s1 (not ${bad.map((b) => `“${b}”`).join(", ")}).`
    : undefined;
}

/** What is wrong with each field of the checks chosen; empty when the form can be sent. */
export function monitorFormProblems(
  types: CheckType[],
  fields: { expiry: string; packages: string; recordTypes: string; selectors: string },
): FieldProblems {
  const problems: FieldProblems = {
    expiry: types.includes("tls") ? expiryProblem(fields.expiry) : undefined,
    packages: types.includes("packages") ? packagesProblem(fields.packages) : undefined,
    recordTypes: types.includes("dns") ? recordTypesProblem(fields.recordTypes) : undefined,
    selectors: types.includes("email_security") ? selectorsProblem(fields.selectors) : undefined,
  };
  return Object.fromEntries(Object.entries(problems).filter(([, v]) => v)) as FieldProblems;
}

/**
 * A refusal from the API in the form's words: the field it names ("target must be…", "thresholds.tls_expiry_days.0:
 * …") said as its label on the form. Returns the field it belongs to, when it names one, so it is shown there.
 */
export function monitorServerProblem(
  message: string,
  targetLabel: string,
): { field: MonitorField | null; text: string } {
  if (/^target\b/.test(message)) return { field: "target", text: message.replace(/^target\b/, targetLabel) };
  if (/^thresholds\.tls_expiry_days: .* more than once/.test(message))
    return { field: "expiry", text: `${capitalized(message.replace(/^thresholds\.tls_expiry_days: /, ""))}.` };
  if (/^thresholds\.tls_expiry_days\b/.test(message))
    return {
      field: "expiry",
      text: `Days must be whole numbers from ${TLS_EXPIRY_DAYS.min} to ${TLS_EXPIRY_DAYS.max}, separated by commas.`,
    };
  if (/^checks\.\d+\.?(packages)?/.test(message) && /packages|ecosystem|version/.test(message))
    return { field: "packages", text: "Packages: write each line as ecosystem, name and version: npm lodash 4.17.20." };
  if (/^checks\b/.test(message))
    return { field: null, text: "One of the checks' options was refused: check the fields of the checks chosen." };
  return { field: null, text: message.replace(/^[a-z_]+(\.[a-z0-9_]+)*: /, "") };
}
