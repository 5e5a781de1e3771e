// One entry point for "which of two versions is newer" in each ecosystem's own ordering.
import { compareComposer, isValidComposer } from "./composer-order";
import type { Ecosystem } from "./ecosystems";
import { compareMaven, isValidMaven } from "./maven-order";
import { comparePep440, isValidPep440 } from "./pep440-order";
import { compareSemver, isValidSemver } from "./semver-order";

export { ECOSYSTEMS, OSV_ECOSYSTEM, ecosystemFromOsv, UnparseableVersionError, type Ecosystem } from "./ecosystems";

/** Negative when a < b, zero when equal, positive when a > b. Throws UnparseableVersionError. */
export function compareVersions(ecosystem: Ecosystem, a: string, b: string): number {
  switch (ecosystem) {
    case "npm":
    case "go":
      return compareSemver(ecosystem, a, b);
    case "pypi":
      return comparePep440(a, b);
    case "maven":
      return compareMaven(a, b);
    case "composer":
      return compareComposer(a, b);
  }
}

export function isValidVersion(ecosystem: Ecosystem, version: string): boolean {
  switch (ecosystem) {
    case "npm":
    case "go":
      return isValidSemver(ecosystem, version);
    case "pypi":
      return isValidPep440(version);
    case "maven":
      return isValidMaven(version);
    case "composer":
      return isValidComposer(version);
  }
}

/** Sorts ascending, dropping strings that are not versions of the ecosystem. */
export function sortVersions(ecosystem: Ecosystem, versions: Iterable<string>): string[] {
  const valid = [...new Set(versions)].filter((v) => isValidVersion(ecosystem, v));
  return valid.sort((a, b) => compareVersions(ecosystem, a, b));
}
