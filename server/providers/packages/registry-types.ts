// What every registry client returns about a package: the metadata the report shows and the list of published
// versions (the registry's own strings), so a requested version can be checked exactly.
export type RegistryPackage = {
  name: string;
  latestVersion: string | null;
  description: string | null;
  license: string | null;
  repositoryUrl: string | null;
  versions: string[];
  /** Publication time per version, where the registry tells it. */
  publishedAt: Record<string, string>;
};

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
    .replace(/^ssh:\/\/git@/, "https://")
    .replace(/^git@([^:]+):/, "https://$1/")
    .replace(/^scm:git:/, "")
    .replace(/\.git$/, "")
    .replace(/#.*$/, "");
  return /^https?:\/\//.test(url) ? url : null;
}
