// Common passwords by k-anonymity (issue 45, item 5), as the Pwned Passwords range API answers them: a client sends
// the first 5 hex characters of a password's SHA-1 and gets every listed hash with that prefix as "SUFFIX:COUNT"
// lines, then looks for its own suffix; the password, and the full hash, never leave the client.
//
// The list is not every breach: it is the 49,233 most common passwords that @zxcvbn-ts/language-common (MIT) ships
// for the zxcvbn strength estimator, lower case, in order of frequency (from the original zxcvbn's lists of leaked
// passwords), each also with a capital first letter and in capitals (spellingsOf). It has no breach counts, so COUNT is the password's commonness: the list's length minus its rank, so the
// most common ("123456") has the highest count and every listed password at least 1. A client treating COUNT > 0 as
// "do not allow" works unchanged. The index is built once, on the first request, and kept (about 2 MB).
import { createHash, randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { dictionary } from "@zxcvbn-ts/language-common";

/** The package the list comes from, its release and the list's size (for the docs and tests). */
export const PASSWORD_LIST_SOURCE = {
  package: "@zxcvbn-ts/language-common",
  version: (
    createRequire(path.join(process.cwd(), "package.json"))("@zxcvbn-ts/language-common/package.json") as {
      version: string;
    }
  ).version,
  license: "MIT",
  /** The pinned release's publication date on the registry (package.json pins the version exactly). */
  released: "2026-07-17",
} as const;

/** At least this many lines with `Add-Padding: true`, as the Pwned Passwords API pads (800 to 1,000). */
export const PADDED_LINES = 800;
const PADDED_LINES_MAX = 1000;

export const PREFIX_PATTERN = /^[0-9A-Fa-f]{5}$/;

let index: Map<string, string[]> | null = null;

/**
 * The spellings of a listed (lower-case) password that the index holds, each with its commonness: as listed, with a
 * capital first letter (`Password1`) and in capitals (`PASSWORD`), the two ways people and password rules capitalise
 * a common password. A client hashes the password as typed (as Pwned Passwords clients do), so each must be listed.
 */
export function spellingsOf(password: string): string[] {
  const capital = password.charAt(0).toUpperCase() + password.slice(1);
  return [...new Set([password, capital, password.toUpperCase()])];
}

/** The listed passwords' hashes by prefix: each prefix's "SUFFIX:COUNT" lines, sorted by suffix. */
function rangeIndex(): Map<string, string[]> {
  if (index) return index;
  const passwords = dictionary["passwords-common"];
  const built = new Map<string, string[]>();
  passwords.forEach((password, rank) => {
    for (const spelling of spellingsOf(password)) {
      const hash = createHash("sha1").update(spelling, "utf8").digest("hex").toUpperCase();
      const prefix = hash.slice(0, 5);
      let lines = built.get(prefix);
      if (!lines) built.set(prefix, (lines = []));
      lines.push(`${hash.slice(5)}:${passwords.length - rank}`);
    }
  });
  for (const lines of built.values()) lines.sort();
  index = built;
  return built;
}

/** How many passwords the list holds. */
export function commonPasswordCount(): number {
  return dictionary["passwords-common"].length;
}

/**
 * The range of `prefix` (5 hex characters, either case) as the Pwned Passwords API's body: "SUFFIX:COUNT" lines
 * (35 upper-case hex characters, a colon, a count) joined by CRLF. With `pad`, zero-count lines of random suffixes
 * are mixed in (in suffix order, so their place tells nothing) up to a random total of 800 to 1,000 lines, so the
 * answer's size does not tell how many listed hashes share the prefix.
 */
export function passwordRange(prefix: string, pad: boolean): string {
  const lines = [...(rangeIndex().get(prefix.toUpperCase()) ?? [])];
  if (pad) {
    const listed = new Set(lines.map((l) => l.slice(0, 35)));
    const target = PADDED_LINES + (randomBytes(2).readUInt16BE() % (PADDED_LINES_MAX - PADDED_LINES + 1));
    while (lines.length < target) {
      const suffix = randomBytes(18).toString("hex").slice(0, 35).toUpperCase();
      if (!listed.has(suffix)) {
        listed.add(suffix);
        lines.push(`${suffix}:0`);
      }
    }
    lines.sort();
  }
  return lines.join("\r\n");
}
