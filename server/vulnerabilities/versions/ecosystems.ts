// The package ecosystems the service reports on, and how each is named by OSV.
export const ECOSYSTEMS = ["npm", "composer", "pypi", "maven", "go"] as const;
export type Ecosystem = (typeof ECOSYSTEMS)[number];

/** OSV's ecosystem names (https://ossf.github.io/osv-schema/#affectedpackage-field). */
export const OSV_ECOSYSTEM: Record<Ecosystem, string> = {
  npm: "npm",
  composer: "Packagist",
  pypi: "PyPI",
  maven: "Maven",
  go: "Go",
};

export function ecosystemFromOsv(name: string): Ecosystem | null {
  for (const eco of ECOSYSTEMS) if (OSV_ECOSYSTEM[eco] === name) return eco;
  return null;
}

/** Thrown by a comparator for a string that is not a version in its ecosystem. */
export class UnparseableVersionError extends Error {
  constructor(ecosystem: Ecosystem, version: string) {
    super(`"${version}" is not a valid ${ecosystem} version`);
    this.name = "UnparseableVersionError";
  }
}
