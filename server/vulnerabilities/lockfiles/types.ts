// What a dependency scan reads out of a lockfile or SBOM: the exact package versions it pins, and the dependencies it
// could not turn into a registry version (git, file, workspace...) with the reason, so nothing is dropped silently.
import type { Ecosystem } from "../versions";

export const LOCKFILE_FORMATS = [
  "package-lock",
  "npm-shrinkwrap",
  "yarn-v1",
  "yarn-berry",
  "pnpm",
  "requirements",
  "poetry",
  "pipfile",
  "composer",
  "go-sum",
  "go-mod",
  "cyclonedx",
  "spdx",
] as const;
export type LockfileFormat = (typeof LOCKFILE_FORMATS)[number];

/** One registry package version; `line` is the 1-based line of its first appearance, `dev` null when unknown. */
export type ParsedPackage = {
  ecosystem: Ecosystem;
  name: string;
  version: string;
  line: number | null;
  dev: boolean | null;
};

/** A dependency that names no registry version (git, file, link, workspace, URL, unpinned...), and why. */
export type SkippedDependency = { name: string; spec: string; reason: string; line: number | null };

export type ParsedLockfile = {
  format: LockfileFormat;
  packages: ParsedPackage[];
  skipped: SkippedDependency[];
  /** What an SBOM describes, as it names it (CycloneDX `metadata.component`: "acme/web@default"); absent otherwise. */
  subject?: string;
};

/** An unreadable file or an unrecognised format; `line` (1-based) points at the problem when known. */
export class LockfileError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
    this.name = "LockfileError";
  }
}

/**
 * A file with more distinct package versions than the caller takes (parseLockfile's `maxPackages`): reading stopped at
 * the first one past the limit, so the file's own count is not known. `format` is the format being read.
 */
export class TooManyPackagesError extends Error {
  format: LockfileFormat | null = null;
  constructor(readonly limit: number) {
    super(`more than ${limit} distinct package versions`);
    this.name = "TooManyPackagesError";
  }
}

/** The file name a message uses for each format, e.g. "package-lock.json line 12: ...". */
export const FORMAT_FILE_NAMES: Record<LockfileFormat, string> = {
  "package-lock": "package-lock.json",
  "npm-shrinkwrap": "npm-shrinkwrap.json",
  "yarn-v1": "yarn.lock",
  "yarn-berry": "yarn.lock",
  pnpm: "pnpm-lock.yaml",
  requirements: "requirements.txt",
  poetry: "poetry.lock",
  pipfile: "Pipfile.lock",
  composer: "composer.lock",
  "go-sum": "go.sum",
  "go-mod": "go.mod",
  cyclonedx: "CycloneDX SBOM",
  spdx: "SPDX SBOM",
};
