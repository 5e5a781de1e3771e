// npm and Go order versions by Semantic Versioning 2.0. Go writes a "v" prefix, builds pseudo-versions
// (v0.0.0-20191109021931-daa7c04131f5) that are ordinary semver pre-releases, and marks pre-module majors with
// "+incompatible", which is build metadata and so takes no part in ordering.
import semver from "semver";
import { UnparseableVersionError, type Ecosystem } from "./ecosystems";

function parse(ecosystem: Ecosystem, version: string): semver.SemVer {
  const text = ecosystem === "go" ? version.replace(/^v/, "") : version;
  const parsed = semver.parse(text, { loose: ecosystem === "npm" });
  if (!parsed) throw new UnparseableVersionError(ecosystem, version);
  return parsed;
}

export function compareSemver(ecosystem: "npm" | "go", a: string, b: string): number {
  return parse(ecosystem, a).compare(parse(ecosystem, b));
}

export function isValidSemver(ecosystem: "npm" | "go", version: string): boolean {
  try {
    parse(ecosystem, version);
    return true;
  } catch {
    return false;
  }
}
