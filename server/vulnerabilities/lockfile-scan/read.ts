// A scan's lockfile is read once per request, although the ladder asks about it three times before any work: the
// bulk rule (more than one package), the validation (readable, 1 to 5,000 packages) and the unit count (one per
// distinct package version). The parse is kept by the body text itself for the request's short life, so the three
// questions and the work share one parse, and a 10 MB body is never parsed twice.
import { LockfileError, parseLockfile, TooManyPackagesError } from "../lockfiles";
import { FORMAT_FILE_NAMES, type LockfileFormat, type ParsedLockfile } from "../lockfiles/types";

/** The most distinct package versions one scan takes (one unit each). */
export const MAX_SCAN_PACKAGES = 5000;
/** The largest body the REST door accepts for a scan. */
export const MAX_SCAN_BYTES = 10_000_000;

export type LockfileRead =
  | { ok: true; lockfile: ParsedLockfile }
  | { ok: false; problem: string; /** Package versions found, when the file was readable. */ packages: number };

// A handful of recent parses: concurrent requests each find theirs; a finished request's entry goes at once, and a
// refused request's (403, 402) within a minute.
const MEMO_SIZE = 8;
const MEMO_MS = 60_000;
const memo = new Map<string, { at: number; byFormat: Map<string, LockfileRead> }>();

const formatKey = (format: LockfileFormat | undefined) => format ?? "";

function describeSkipped(lockfile: ParsedLockfile): string {
  const { skipped } = lockfile;
  if (skipped.length === 0) return "";
  const shown = skipped
    .slice(0, 5)
    .map((s) => `${s.name || s.spec} (${s.reason})`)
    .join("; ");
  const more = skipped.length > 5 ? `; and ${skipped.length - 5} more` : "";
  return `: ${skipped.length} ${skipped.length === 1 ? "dependency was" : "dependencies were"} skipped: ${shown}${more}`;
}

function withLine(err: LockfileError): string {
  if (err.line === null || /\bline \d+/i.test(err.message)) return err.message;
  return `Line ${err.line}: ${err.message}`;
}

/** Same package version listed twice (a parser's slip) is one target, one unit. */
function distinct(lockfile: ParsedLockfile): ParsedLockfile {
  const seen = new Set<string>();
  const packages = lockfile.packages.filter((p) => {
    const key = `${p.ecosystem}\u0000${p.name}\u0000${p.version}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return packages.length === lockfile.packages.length ? lockfile : { ...lockfile, packages };
}

function read(text: string, format: LockfileFormat | undefined): LockfileRead {
  if (!text.trim())
    return {
      ok: false,
      problem: "The request body is empty: send the lockfile or SBOM itself as the body.",
      packages: 0,
    };
  let lockfile: ParsedLockfile;
  try {
    lockfile = distinct(parseLockfile(text, format, { maxPackages: MAX_SCAN_PACKAGES }));
  } catch (err) {
    if (err instanceof LockfileError) return { ok: false, problem: withLine(err), packages: 0 };
    // Reading stopped at the first version past the limit: more than one, so the bulk rule still comes first.
    if (err instanceof TooManyPackagesError)
      return {
        ok: false,
        problem: `The ${FORMAT_FILE_NAMES[err.format!]} lists more than ${MAX_SCAN_PACKAGES.toLocaleString("en-US")} distinct package versions; a scan takes at most ${MAX_SCAN_PACKAGES.toLocaleString("en-US")}. Split it and scan the parts.`,
        packages: MAX_SCAN_PACKAGES + 1,
      };
    throw err;
  }
  const file = FORMAT_FILE_NAMES[lockfile.format];
  const count = lockfile.packages.length;
  if (count === 0)
    return { ok: false, problem: `No package versions found in the ${file}${describeSkipped(lockfile)}.`, packages: 0 };
  if (count > MAX_SCAN_PACKAGES)
    return {
      ok: false,
      problem: `The ${file} lists ${count.toLocaleString("en-US")} distinct package versions; a scan takes at most ${MAX_SCAN_PACKAGES.toLocaleString("en-US")}. Split it and scan the parts.`,
      packages: count,
    };
  return { ok: true, lockfile };
}

/** The lockfile read from the body text (the format detected, or the one given), from the memo when already read. */
export function readLockfileOnce(text: string, format?: LockfileFormat): LockfileRead {
  let entry = memo.get(text);
  const hit = entry?.byFormat.get(formatKey(format));
  if (hit) return hit;
  const result = read(text, format);
  if (!entry) {
    const now = Date.now();
    for (const [key, e] of memo) if (now - e.at > MEMO_MS) memo.delete(key);
    if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
    entry = { at: now, byFormat: new Map() };
    memo.set(text, entry);
  }
  entry.byFormat.set(formatKey(format), result);
  return result;
}

/** Drops a finished request's parse. */
export function forgetLockfile(text: string): void {
  memo.delete(text);
}

/** For the bulk rule, which sees the raw input before validation: more than one package, when it can tell. */
export function listsSeveralPackages(raw: unknown): boolean {
  if (!raw || typeof raw !== "object") return false;
  const { lockfile, format } = raw as { lockfile?: unknown; format?: unknown };
  if (typeof lockfile !== "string" || lockfile.length > MAX_SCAN_BYTES) return false;
  const known = typeof format === "string" && format in FORMAT_FILE_NAMES ? (format as LockfileFormat) : undefined;
  if (format !== undefined && !known) return false; // an unknown format is refused by validation, with its reason
  // A file of more than 5,000 packages still lists several: the bulk rule comes first, as the spec orders it.
  const r = readLockfileOnce(lockfile, known);
  return (r.ok ? r.lockfile.packages.length : r.packages) > 1;
}
