// What every registry client returns about a package: the metadata the report shows and the list of published
// versions (the registry's own strings), so a requested version can be checked exactly.
export type RegistryPackage = {
  name: string;
  latestVersion: string | null;
  description: string | null;
  license: string | null;
  repositoryUrl: string | null;
  /** npm: the package's folder inside its repository (`repository.directory`: a monorepo's `packages/core`). */
  repositoryDirectory?: string | null;
  /** npm: the accounts that maintain the package (its `maintainers`), where the registry tells them. */
  maintainers?: string[];
  versions: string[];
  /** Publication time per version, where the registry tells it. */
  publishedAt: Record<string, string>;
  /** Supply-chain facts per version, where the registry tells them (the dependency scan's findings rest on them). */
  versionFacts?: Record<string, VersionFacts>;
};

/** What one published version does at install time and how it was published; absent fields are unknown. */
export type VersionFacts = {
  /** npm lifecycle scripts that run on install (preinstall, install, postinstall), with their text. */
  installScripts?: Array<{ hook: string; script: string }>;
  /** npm: a binding.gyp makes `npm install` run node-gyp even without an install script. */
  gypfile?: boolean;
  /** npm: the deprecation message. */
  deprecated?: string;
  /** PyPI: yanked, with the maintainers' reason (may be empty). */
  yanked?: { reason: string };
  /** PyPI: no wheel among the release's files, so installing runs its setup.py. */
  sourceOnly?: boolean;
  /** Packagist: a Composer plugin, whose code Composer runs during install and update. */
  composerPlugin?: boolean;
  /** npm: the account that published this version. */
  publisher?: string;
  /**
   * npm: the source repository this version's own document links, when it links one. A package's versions can link
   * different repositories (a placeholder `latest` with none, a project moved or renamed), so a version's findings
   * judge its own link; versions linking the same repository share one object.
   */
  repository?: RepositoryLink;
};

/** A source repository link: its browsable URL and, for a monorepo's package, the package's folder in it. */
export type RepositoryLink = { url: string; directory: string | null };

/** Normalises the many ways registries spell a source repository into a browsable https URL. */
export function normaliseRepositoryUrl(raw: unknown): string | null {
  if (typeof raw !== "string" || !raw.trim()) return null;
  let url = raw.trim();
  const shorthand = /^(github|gitlab|bitbucket):(.+)$/.exec(url);
  if (shorthand) url = `https://${shorthand[1]}.${shorthand[1] === "bitbucket" ? "org" : "com"}/${shorthand[2]}`;
  else if (/^[\w.-]+\/[\w.-]+$/.test(url)) url = `https://github.com/${url}`;
  url = url
    .replace(/^git\+/, "")
    .replace(/^git:\/\//, "https://")
    .replace(/^ssh:\/\/(git@)?/, "https://")
    .replace(/^git@([^:]+):/, "https://$1/")
    .replace(/^scm:git:/, "")
    .replace(/\.git$/, "")
    .replace(/#.*$/, "")
    // One repository, one spelling: www.github.com/o/r is github.com/o/r (older npm releases wrote it so).
    .replace(/^(https?:\/\/)www\.(github\.com|gitlab\.com|bitbucket\.org)\//i, "$1$2/");
  return /^https?:\/\//.test(url) ? url : null;
}
