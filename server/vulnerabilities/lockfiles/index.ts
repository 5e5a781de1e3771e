// One entry point for the dependency scan (issue 25): recognise a lockfile or SBOM from its content alone (the
// request body has no file name) and read it into distinct package versions plus the dependencies it had to skip.
import { isObject, withPackageLimit } from "./common";
import { parseComposerLock } from "./composer";
import { parseGoMod, parseGoSum } from "./go";
import { parsePackageLock, looksLikePackageLock } from "./npm";
import { parsePnpm } from "./pnpm";
import { parsePipfileLock, parsePoetry, parseRequirements } from "./python";
import { parseCycloneDx, parseSpdx } from "./sbom";
import { screenParsedLockfile } from "./screen";
import {
  FORMAT_FILE_NAMES,
  LOCKFILE_FORMATS,
  LockfileError,
  TooManyPackagesError,
  type LockfileFormat,
  type ParsedLockfile,
} from "./types";
import { parseYarnBerry, parseYarnV1 } from "./yarn";

export * from "./types";
export { readPurl } from "./sbom";

/** Format hints for JSON that does not parse, so the syntax error is still reported against the right file. */
function detectJsonByText(text: string): LockfileFormat | null {
  if (text.includes('"bomFormat"') && text.includes("CycloneDX")) return "cyclonedx";
  if (text.includes('"spdxVersion"')) return "spdx";
  if (text.includes('"_meta"') && (text.includes('"default"') || text.includes('"develop"'))) return "pipfile";
  if (text.includes('"content-hash"') || text.includes('"packages-dev"')) return "composer";
  if (text.includes('"lockfileVersion"')) return "package-lock";
  return null;
}

function detectJson(text: string): LockfileFormat | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return detectJsonByText(text);
  }
  if (!isObject(doc)) return null;
  if (doc.bomFormat === "CycloneDX") return "cyclonedx";
  if (typeof doc.spdxVersion === "string") return "spdx";
  if (isObject(doc._meta) && (isObject(doc.default) || isObject(doc.develop))) return "pipfile";
  // npm's own marker: a package-lock.json whose "packages" is broken (a list) is still one, not a composer.lock.
  if (typeof doc.lockfileVersion === "number" && typeof doc["content-hash"] !== "string") return "package-lock";
  if (Array.isArray(doc.packages) || Array.isArray(doc["packages-dev"]) || typeof doc["content-hash"] === "string")
    return "composer";
  if (looksLikePackageLock(doc)) return "package-lock";
  return null;
}

/** The first lines that are neither blank nor comments (enough to recognise every text format). */
function firstLines(text: string, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (start <= text.length && out.length < max) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, "");
    if (line.trim() && !line.trimStart().startsWith("#") && !line.trimStart().startsWith("//")) out.push(line);
    start = end + 1;
  }
  return out;
}

const GO_SUM_LINE = /^\S+ v\S+ h1:\S+$/;
// One optional whitespace run on each side of the extras (no two adjacent `\s*`), so a failing line costs linear time.
const REQUIREMENT_LINE = /^[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\]\s*)?(?:===?|~=|>=|<=|!=|<|>|@|;|$)/;
const REQUIREMENT_PIN = /^[A-Za-z0-9][A-Za-z0-9._-]*\s*(?:\[[^\]]*\]\s*)?(?:===?|~=|>=|<=|!=|<|>|@)/;

export function detectLockfileFormat(text: string): LockfileFormat | null {
  const body = text.replace(/^\uFEFF/, "");
  const trimmed = body.trimStart();
  if (trimmed.startsWith("{")) return detectJson(body);
  if (/^# yarn lockfile v1\s*$/m.test(body.slice(0, 2000))) return "yarn-v1";
  const lines = firstLines(body, 200);
  if (lines.length === 0) return null;
  if (lines.some((l) => /^"?__metadata"?:\s*$/.test(l))) return "yarn-berry";
  if (lines.some((l) => /^lockfileVersion:\s*\S/.test(l))) return "pnpm";
  if (lines.some((l) => l.trim() === "[[package]]") || lines.some((l) => l.trim() === "[metadata]")) return "poetry";
  if (lines.every((l) => GO_SUM_LINE.test(l.trim()))) return "go-sum";
  if (lines.some((l) => /^module\s+\S+\s*$/.test(l)) && lines.every((l) => !l.startsWith("-")))
    if (lines.some((l) => /^(go|require|replace)\b/.test(l))) return "go-mod";
  // yarn v1 without its comment: an unindented "spec:" header followed by an indented `version "x"`.
  for (let i = 0; i + 1 < lines.length; i++)
    if (/^\S.*:$/.test(lines[i]) && /^ {2}version "/.test(lines[i + 1])) return "yarn-v1";
  const requirementLike = lines.every((l) => {
    const t = l.trim();
    return /^[-./]/.test(t) || /^[a-z+]+:\/\//i.test(t) || REQUIREMENT_LINE.test(t);
  });
  if (requirementLike && lines.some((l) => REQUIREMENT_PIN.test(l.trim()) || l.trim().startsWith("-r")))
    return "requirements";
  return null;
}

const PARSERS: Record<LockfileFormat, (text: string) => ParsedLockfile> = {
  "package-lock": (t) => parsePackageLock(t, "package-lock"),
  "npm-shrinkwrap": (t) => parsePackageLock(t, "npm-shrinkwrap"),
  "yarn-v1": parseYarnV1,
  "yarn-berry": parseYarnBerry,
  pnpm: parsePnpm,
  requirements: parseRequirements,
  poetry: parsePoetry,
  pipfile: parsePipfileLock,
  composer: parseComposerLock,
  "go-sum": parseGoSum,
  "go-mod": parseGoMod,
  cyclonedx: parseCycloneDx,
  spdx: parseSpdx,
};

/**
 * Throws LockfileError naming the line (1-based) for an unreadable file, an unrecognised format, or strings that are
 * not text (a NUL, a control character or a lone surrogate, written or escaped: ./screen.ts).
 */
export function parseLockfile(
  text: string,
  format?: LockfileFormat,
  opts: { maxPackages?: number } = {},
): ParsedLockfile {
  const body = text.replace(/^\uFEFF/, "");
  const nul = body.indexOf("\u0000");
  if (nul !== -1) {
    const line = body.slice(0, nul).split("\n").length;
    throw new LockfileError(`line ${line}: the file holds a NUL character; lockfiles and SBOMs are text`, line);
  }
  if (format !== undefined && !LOCKFILE_FORMATS.includes(format))
    throw new LockfileError(`unknown format "${String(format)}"; formats read: ${LOCKFILE_FORMATS.join(", ")}`, null);
  const chosen = format ?? detectLockfileFormat(body);
  if (!chosen) {
    const names = [...new Set(Object.values(FORMAT_FILE_NAMES))].join(", ");
    throw new LockfileError(
      `line 1: not a lockfile or SBOM this service reads (formats read: ${names}; JSON SBOMs only)`,
      1,
    );
  }
  let parsed: ParsedLockfile;
  try {
    parsed = withPackageLimit(opts.maxPackages ?? Infinity, () => PARSERS[chosen](body));
  } catch (err) {
    if (err instanceof TooManyPackagesError) err.format = chosen;
    throw err;
  }
  screenParsedLockfile(parsed);
  return parsed;
}
