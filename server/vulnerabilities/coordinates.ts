// What a package coordinate looks like in each ecosystem. Used by the API's input schema (so a malformed
// coordinate is a 400 that costs no unit) and again by the domain functions.
import type { Ecosystem } from "./versions";

const PATTERNS: Record<Ecosystem, RegExp> = {
  // npm names: lower case today, but old packages kept capitals (JSONStream); scoped as @scope/name.
  npm: /^(?:@[A-Za-z0-9][\w.~-]*\/)?[A-Za-z0-9~][\w.~-]*$/,
  composer: /^[a-z0-9]([_.-]?[a-z0-9]+)*\/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$/i,
  pypi: /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/,
  maven: /^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/,
  // A module path: a host-like first element with a dot, then path elements ("stdlib" and "toolchain" are Go's own).
  go: /^(?:stdlib|toolchain|[a-z0-9-]+(\.[a-z0-9-]+)+(\/[A-Za-z0-9._~+-]+)*)$/,
};

const HINTS: Record<Ecosystem, string> = {
  npm: "an npm package name such as express or @babel/core",
  composer: "a Composer package name vendor/package such as monolog/monolog",
  pypi: "a PyPI project name such as requests",
  maven: "a Maven coordinate group:artifact such as org.apache.logging.log4j:log4j-core",
  go: "a Go module path such as github.com/gin-gonic/gin",
};

export function coordinateProblem(eco: Ecosystem, coordinate: string): string | null {
  if (coordinate.length === 0 || coordinate.length > 214 * 2) return `Expected ${HINTS[eco]}.`;
  return PATTERNS[eco].test(coordinate) ? null : `Expected ${HINTS[eco]}.`;
}

/** CVE identifiers as MITRE assigns them: CVE-YYYY-NNNN with four or more digits. */
export const CVE_ID_PATTERN = /^CVE-\d{4}-\d{4,}$/i;
