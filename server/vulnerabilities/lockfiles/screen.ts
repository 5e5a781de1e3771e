// What a lockfile may hold in the strings it is read into. The request's own screen sees the file's text, where JSON
// (`\u0000`, `\ud800`), YAML (`\0`, `\x00`) and TOML (`\u0000`) can still escape a NUL, a control character or half
// of a UTF-16 surrogate pair into a package name, version or dependency spec. None is a name any registry publishes,
// PostgreSQL refuses a NUL in text and UTF-8 cannot encode a lone surrogate (both used to surface as a 500 after
// the scan's units were reserved), so the file is refused as unreadable, naming the line, before anything is charged.
import { FORMAT_FILE_NAMES, LockfileError, type ParsedLockfile } from "./types";

// C0 controls and DEL, then a high surrogate not followed by a low one or a low surrogate not preceded by a high one.
const CONTROL = /[\u0000-\u001f\u007f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function problemOf(value: string): string | null {
  if (value.includes("\u0000")) return "a NUL character (an escaped \\u0000 or \\0)";
  if (CONTROL.test(value)) return "a control character";
  if (LONE_SURROGATE.test(value))
    return "half of a UTF-16 surrogate pair (such as an escaped \\ud800) without the other";
  return null;
}

/** Throws LockfileError naming the line of the first package or skipped dependency whose strings are not text. */
export function screenParsedLockfile(lockfile: ParsedLockfile): void {
  const entries = [
    ...lockfile.packages.map((p) => ({
      what: "a package name or version",
      line: p.line,
      strings: [p.name, p.version],
    })),
    ...lockfile.skipped.map((s) => ({ what: "a dependency's name or spec", line: s.line, strings: [s.name, s.spec] })),
  ];
  for (const e of entries)
    for (const s of e.strings) {
      const problem = problemOf(s);
      if (problem)
        throw new LockfileError(
          `${FORMAT_FILE_NAMES[lockfile.format]}${e.line === null ? "" : ` line ${e.line}`}: ${e.what} holds ${problem}, which no package registry accepts; fix the file and send it again.`,
          e.line,
        );
    }
}
