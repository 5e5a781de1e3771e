// Shared by every format reader: line numbers from offsets, a forward-only text scan that finds where a JSON key
// first appears (so the answer can point at a line without a position-keeping JSON parser), the distinct-package
// collector, and syntax errors turned into LockfileErrors that name the line.
import { LineCounter, parseDocument } from "yaml";
import type { Ecosystem } from "../versions";
import { npmNameProblem } from "./npm-name";
import {
  FORMAT_FILE_NAMES,
  LockfileError,
  type LockfileFormat,
  type ParsedLockfile,
  type ParsedPackage,
  TooManyPackagesError,
} from "./types";

// The limit of the parse under way (withPackageLimit): parses are synchronous, so one at a time has it.
let packageLimit = Infinity;

/** Runs one synchronous parse whose collectors stop at the first distinct package version past `limit`. */
export function withPackageLimit<T>(limit: number, parse: () => T): T {
  const outer = packageLimit;
  packageLimit = limit;
  try {
    return parse();
  } finally {
    packageLimit = outer;
  }
}

/** Offset -> 1-based line, by binary search over the line starts (built once, linear). */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
  }
  get lineCount(): number {
    return this.starts.length;
  }
  lineAt(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

const MAX_RESCANS = 32;

/**
 * Finds JSON strings in document order: each search starts where the previous match ended, so walking a parsed
 * document in its text order costs one pass over the text. A string not found ahead is looked for from the start.
 */
export class TextScanner {
  private cursor = 0;
  /** Searches from the start are bounded, so keys written with escapes cannot make the scan quadratic. */
  private rescans = 0;
  constructor(private readonly lines: LineIndex) {}

  /** Line of the next occurrence of the JSON-quoted `value` (a key or a string value), or null. */
  find(value: string): number | null {
    const needle = JSON.stringify(value);
    let at = this.lines.text.indexOf(needle, this.cursor);
    if (at === -1) {
      if (this.rescans >= MAX_RESCANS) return null;
      this.rescans++;
      at = this.lines.text.indexOf(needle);
      if (at === -1) return null;
      return this.lines.lineAt(at);
    }
    this.cursor = at + needle.length;
    return this.lines.lineAt(at);
  }
}

export type Collector = {
  add(ecosystem: Ecosystem, name: string, version: string, line: number | null, dev: boolean | null): void;
  skip(name: string, spec: string, reason: string, line: number | null): void;
  result(format: LockfileFormat): ParsedLockfile;
};

/** Packages distinct by (ecosystem, name, version) in first-seen order; dev only when every sighting says dev. */
export function collector(): Collector {
  const limit = packageLimit;
  const packages = new Map<string, ParsedPackage>();
  const skipped: ParsedLockfile["skipped"] = [];
  return {
    add(ecosystem, name, version, line, dev) {
      // A name npm could never have published is no registry package: skipped with the reason, never looked up.
      const badName = ecosystem === "npm" ? npmNameProblem(name) : null;
      if (badName) {
        skipped.push({ name, spec: version, reason: badName, line });
        return;
      }
      const key = `${ecosystem}\u0000${name}\u0000${version}`;
      const seen = packages.get(key);
      if (!seen) {
        // Past the caller's limit the file is refused for its size: the rest is not read (a 10 MB file of short
        // lines is half a million versions, seconds of the event loop, for a refusal).
        if (packages.size >= limit) throw new TooManyPackagesError(limit);
        packages.set(key, { ecosystem, name, version, line, dev });
        return;
      }
      if (seen.dev === false || dev === false) seen.dev = false;
      else if (seen.dev === null || dev === null) seen.dev = null;
    },
    skip(name, spec, reason, line) {
      skipped.push({ name, spec, reason, line });
    },
    result(format) {
      return { format, packages: [...packages.values()], skipped };
    },
  };
}

export function fail(format: LockfileFormat, message: string, line: number | null): never {
  const where = line === null ? FORMAT_FILE_NAMES[format] : `${FORMAT_FILE_NAMES[format]} line ${line}`;
  throw new LockfileError(`${where}: ${message}`, line);
}

/** JSON.parse, with a syntax error reported at its line. */
export function parseJson(format: LockfileFormat, lines: LineIndex): unknown {
  try {
    return JSON.parse(lines.text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const lineCol = /\(line (\d+) column \d+\)/.exec(message);
    const position = /at position (\d+)/.exec(message);
    let line: number;
    if (lineCol) line = Number(lineCol[1]);
    else if (position) line = lines.lineAt(Number(position[1]));
    else line = lines.lineCount;
    const reason = message.replace(/\s*\(line \d+ column \d+\)/, "").replace(/ in JSON at position \d+/, "");
    return fail(format, `not valid JSON: ${reason}`, line);
  }
}

/**
 * A YAML document (pnpm-lock.yaml, a Yarn Berry yarn.lock), with a syntax error reported at its line. Nesting past
 * what the parser can follow is said in words: its own text is the JavaScript engine's ("Maximum call stack size
 * exceeded"), which names an internal, not the file's problem.
 */
export function parseYaml(format: LockfileFormat, text: string) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const why = e.code === "RESOURCE_EXHAUSTION" ? "nested too deeply to read" : e.message.split("\n")[0];
    fail(format, `not valid YAML: ${why}`, e.linePos?.[0].line ?? null);
  }
  return { doc, lineCounter };
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The object at `value`, or a LockfileError saying what `what` should have been. */
export function expectObject(format: LockfileFormat, value: unknown, what: string, line: number | null): JsonObject {
  if (!isObject(value)) fail(format, `${what} is not an object`, line);
  return value;
}

export function expectArray(format: LockfileFormat, value: unknown, what: string, line: number | null): unknown[] {
  if (!Array.isArray(value)) fail(format, `${what} is not a list`, line);
  return value;
}

export function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** PEP 503 normalisation: lowercase, runs of "-", "_" and "." become one "-". */
export function normalizePypiName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** "@scope/name@1.2.3" -> ["@scope/name", "1.2.3"]: the "@" that separates is the first one after the start. */
export function splitAtVersion(spec: string): [string, string] | null {
  const at = spec.indexOf("@", 1);
  if (at <= 0) return null;
  return [spec.slice(0, at), spec.slice(at + 1)];
}

/** Why an npm-style version or spec is not a registry version, or null when it is one. */
export function nonRegistryReason(spec: string): string | null {
  const s = spec.trim();
  if (/^(git\+|git:|git@|github:|gitlab:|bitbucket:|gist:)/.test(s) || /\.git(#|$)/.test(s)) return "git dependency";
  if (s.startsWith("file:")) return "local file dependency";
  if (s.startsWith("link:")) return "link to a local folder";
  if (s.startsWith("portal:")) return "portal to a local folder";
  if (s.startsWith("workspace:")) return "workspace package";
  if (s.startsWith("exec:")) return "generated by a script";
  if (/^https?:\/\//.test(s)) return "tarball URL dependency";
  if (/^[^@/\s]+\/[^@/\s]+(#.*)?$/.test(s) && !s.includes(":")) return "git dependency (GitHub shorthand)";
  return null;
}
