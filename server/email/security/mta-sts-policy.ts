// The MTA-STS policy file (RFC 8461 section 3.2): "key: value" lines, and the rule by which its mx patterns cover the
// domain's MX hosts (section 4.1: a "*." wildcard stands for exactly one leftmost label).

export type MtaStsMode = "enforce" | "testing" | "none";

export interface MtaStsPolicy {
  version: string | null;
  mode: MtaStsMode | null;
  maxAge: number | null;
  mxPatterns: string[];
  errors: string[];
}

const MODES = new Set(["enforce", "testing", "none"]);
const MAX_AGE_LIMIT = 31_557_600; // one year, the RFC's upper bound

export function parseMtaStsPolicy(text: string): MtaStsPolicy {
  const fields: Record<string, string[]> = {};
  const errors: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(":");
    if (colon <= 0) {
      errors.push(`Line "${line.slice(0, 80)}" is not "key: value".`);
      continue;
    }
    const key = line.slice(0, colon).trim().toLowerCase();
    (fields[key] ??= []).push(line.slice(colon + 1).trim());
  }
  const version = fields.version?.[0] ?? null;
  if (version !== "STSv1") errors.push(version ? `version: ${version} is not STSv1.` : "version: STSv1 is missing.");
  const modeText = fields.mode?.[0]?.toLowerCase() ?? null;
  const mode = modeText && MODES.has(modeText) ? (modeText as MtaStsMode) : null;
  if (!mode) errors.push(modeText ? `mode: ${modeText} is not enforce, testing or none.` : "mode: is missing.");
  const ageText = fields.max_age?.[0] ?? null;
  const maxAge = ageText && /^\d{1,10}$/.test(ageText) ? Number(ageText) : null;
  if (maxAge === null || maxAge > MAX_AGE_LIMIT)
    errors.push(ageText ? `max_age: ${ageText} is not 0..${MAX_AGE_LIMIT} seconds.` : "max_age: is missing.");
  const mxPatterns = (fields.mx ?? []).map((p) => p.toLowerCase().replace(/\.$/, ""));
  if (mxPatterns.length === 0 && mode !== "none") errors.push("No mx: line: the policy names no mail server.");
  return { version, mode, maxAge: maxAge !== null && maxAge <= MAX_AGE_LIMIT ? maxAge : null, mxPatterns, errors };
}

export function mxMatches(pattern: string, host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  if (!pattern.startsWith("*.")) return pattern === h;
  const dot = h.indexOf(".");
  return dot > 0 && h.slice(dot + 1) === pattern.slice(2);
}

/** MX hosts no pattern covers: an enforcing sender refuses to deliver to them. */
export function uncoveredMx(patterns: string[], mxHosts: string[]): string[] {
  return mxHosts.filter((h) => !patterns.some((p) => mxMatches(p, h)));
}
