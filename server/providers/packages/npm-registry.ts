// The npm registry: package documents (packuments) and the bulk advisory endpoint that `npm audit` uses.
import { npmAdvisoryUrl, npmRegistryUrl } from "./config";
import { fetchUpstream, type Fetched } from "./http";
import { normaliseRepositoryUrl, type RegistryPackage, type RepositoryLink, type VersionFacts } from "./registry-types";

/** Path segment of a package name: scoped names keep "@" and encode the slash, as the registry expects. */
export function npmNamePath(name: string): string {
  return name.startsWith("@") ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);
}

export function npmPackageUrl(name: string): string | null {
  const base = npmRegistryUrl();
  return base ? `${base}/${npmNamePath(name)}` : null;
}

type Packument = {
  name?: string;
  description?: string;
  license?: unknown;
  repository?: unknown;
  maintainers?: unknown;
  "dist-tags"?: Record<string, string>;
  versions?: Record<string, PackumentVersion>;
  time?: Record<string, string>;
};

type PackumentVersion = {
  description?: string;
  license?: unknown;
  repository?: unknown;
  licenses?: unknown;
  scripts?: Record<string, unknown>;
  gypfile?: unknown;
  deprecated?: unknown;
  _npmUser?: { name?: unknown };
};

const INSTALL_HOOKS = ["preinstall", "install", "postinstall"] as const;

/**
 * What a version runs on install, who published it and the repository it links (kept small: a packument can hold
 * thousands of versions, so equal links are one shared object from `links`).
 */
function versionFactsOf(doc: PackumentVersion, links: Map<string, RepositoryLink>): VersionFacts {
  const facts: VersionFacts = {};
  const url = repositoryOf(doc.repository);
  if (url) {
    const directory = directoryOf(doc.repository);
    const key = `${url}#${directory ?? ""}`;
    let link = links.get(key);
    if (!link) links.set(key, (link = { url, directory }));
    facts.repository = link;
  }
  const scripts = INSTALL_HOOKS.flatMap((hook) => {
    const script = doc.scripts?.[hook];
    return typeof script === "string" && script.trim() ? [{ hook, script: script.slice(0, 500) }] : [];
  });
  if (scripts.length) facts.installScripts = scripts;
  if (doc.gypfile === true) facts.gypfile = true;
  if (typeof doc.deprecated === "string" && doc.deprecated.trim()) facts.deprecated = doc.deprecated.slice(0, 500);
  if (typeof doc._npmUser?.name === "string") facts.publisher = doc._npmUser.name;
  return facts;
}

function licenseText(raw: unknown): string | null {
  if (typeof raw === "string") return raw;
  if (raw && typeof raw === "object" && "type" in raw && typeof raw.type === "string") return raw.type;
  if (Array.isArray(raw)) {
    const names = raw.map(licenseText).filter((x): x is string => !!x);
    return names.length ? names.join(" OR ") : null;
  }
  return null;
}

function repositoryOf(raw: unknown): string | null {
  if (typeof raw === "string") return normaliseRepositoryUrl(raw);
  if (raw && typeof raw === "object" && "url" in raw) return normaliseRepositoryUrl(raw.url);
  return null;
}

/** The folder of a monorepo's package (`repository.directory`), from the same field the URL came from. */
function directoryOf(raw: unknown): string | null {
  if (!raw || typeof raw !== "object" || !("directory" in raw) || typeof raw.directory !== "string") return null;
  return (
    raw.directory
      .trim()
      .replace(/^\.?\/+|\/+$/g, "")
      .slice(0, 300) || null
  );
}

function maintainerNames(raw: unknown): string[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((m) => (m && typeof m === "object" && "name" in m && typeof m.name === "string" ? [m.name] : []));
}

export function parsePackument(body: string): RegistryPackage | null {
  const doc = JSON.parse(body) as Packument;
  const versions = Object.keys(doc.versions ?? {});
  // An unpublished package keeps a document with no versions: for a report it does not exist.
  if (!doc.name || versions.length === 0) return null;
  const latest = doc["dist-tags"]?.latest ?? null;
  const latestDoc = latest ? doc.versions?.[latest] : undefined;
  const publishedAt: Record<string, string> = {};
  const versionFacts: Record<string, VersionFacts> = {};
  const links = new Map<string, RepositoryLink>();
  for (const v of versions) {
    if (doc.time?.[v]) publishedAt[v] = doc.time[v];
    versionFacts[v] = versionFactsOf(doc.versions?.[v] ?? {}, links);
  }
  return {
    name: doc.name,
    latestVersion: latest,
    description: doc.description ?? latestDoc?.description ?? null,
    license: licenseText(doc.license) ?? licenseText(latestDoc?.license) ?? licenseText(latestDoc?.licenses),
    repositoryUrl: repositoryOf(doc.repository) ?? repositoryOf(latestDoc?.repository),
    repositoryDirectory: repositoryOf(doc.repository)
      ? directoryOf(doc.repository)
      : directoryOf(latestDoc?.repository),
    maintainers: maintainerNames(doc.maintainers),
    versions,
    publishedAt,
    versionFacts,
  };
}

const NOT_CONFIGURED =
  "the npm registry address is not configured (SERVICE_NPM_REGISTRY_URL or npm's registry setting)";

export async function getNpmPackage(name: string): Promise<Fetched<RegistryPackage>> {
  const url = npmPackageUrl(name);
  if (!url) return { kind: "unavailable", url: "", reason: NOT_CONFIGURED };
  const r = await fetchUpstream({ source: "npm", url }, parsePackument);
  if (r.kind === "ok" && r.value === null) return { kind: "not_found", url };
  return r as Fetched<RegistryPackage>;
}

/** One advisory as the bulk endpoint returns it. */
export type NpmBulkAdvisory = {
  id: number;
  url: string;
  title: string;
  severity: string;
  vulnerable_versions: string;
  cwe?: string[];
  cvss?: { score?: number; vectorString?: string | null };
};

export function npmBulkAdvisoryUrl(): string | null {
  const base = npmAdvisoryUrl();
  return base ? `${base}/-/npm/v1/security/advisories/bulk` : null;
}

/** Advisories the registry knows for any of the given versions of one package. */
export async function getNpmBulkAdvisories(name: string, versions: string[]): Promise<Fetched<NpmBulkAdvisory[]>> {
  const url = npmBulkAdvisoryUrl();
  if (!url) return { kind: "unavailable", url: "", reason: NOT_CONFIGURED };
  const r = await fetchUpstream(
    { source: "npm-advisories", url, method: "POST", body: { [name]: versions }, notFoundStatuses: [] },
    (body) => {
      const doc = JSON.parse(body) as Record<string, NpmBulkAdvisory[]>;
      const list = doc[name] ?? [];
      if (!Array.isArray(list)) throw new Error("advisory list is not an array");
      return list;
    },
  );
  return r;
}
