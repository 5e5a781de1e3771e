// Packagist's Composer v2 metadata (GET /p2/{vendor}/{package}.json). Versions arrive "minified": each entry
// holds only the fields that changed from the entry before it, and "__unset" removes a field.
import { packagistUrl } from "./config";
import { fetchUpstream, type Fetched } from "./http";
import { normaliseRepositoryUrl, type RegistryPackage, type VersionFacts } from "./registry-types";

type ComposerVersion = {
  version?: string;
  version_normalized?: string;
  description?: string;
  license?: string[];
  homepage?: string;
  source?: { url?: string };
  time?: string;
  type?: string;
};

export function isComposerName(name: string): boolean {
  return /^[a-z0-9]([_.-]?[a-z0-9]+)*\/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$/.test(name);
}

export function packagistMetadataUrl(name: string): string {
  const [vendor, pkg] = name.split("/");
  return `${packagistUrl()}/p2/${encodeURIComponent(vendor)}/${encodeURIComponent(pkg)}.json`;
}

/** composer/metadata-minifier's expand(). */
export function expandMinified(list: Array<Record<string, unknown>>): ComposerVersion[] {
  const out: ComposerVersion[] = [];
  let last: Record<string, unknown> | null = null;
  for (const entry of list) {
    const expanded: Record<string, unknown> = { ...(last ?? {}) };
    for (const [k, v] of Object.entries(entry)) {
      if (v === "__unset") delete expanded[k];
      else expanded[k] = v;
    }
    out.push(expanded as ComposerVersion);
    last = expanded;
  }
  return out;
}

// Composer counts plain releases and patch releases ("1.0.0.0-patch1") as stable.
const isStable = (v: ComposerVersion) => /^\d+(\.\d+)*(-patch\d*)?$/i.test(v.version_normalized ?? "");

export function parsePackagist(name: string, body: string): RegistryPackage {
  const doc = JSON.parse(body) as { packages?: Record<string, Array<Record<string, unknown>>> };
  const list = doc.packages?.[name];
  if (!Array.isArray(list)) throw new Error("not a Composer metadata document");
  const versions = expandMinified(list).filter(
    (v): v is ComposerVersion & { version: string } => typeof v.version === "string",
  );
  // Packagist lists newest first; the latest is the newest stable release, else the newest of any kind.
  const latest = versions.find(isStable) ?? versions[0];
  const publishedAt: Record<string, string> = {};
  const versionFacts: Record<string, VersionFacts> = {};
  for (const v of versions) {
    if (v.time) publishedAt[v.version] = v.time;
    versionFacts[v.version] = v.type === "composer-plugin" ? { composerPlugin: true } : {};
  }
  return {
    name,
    latestVersion: latest?.version ?? null,
    description: latest?.description || null,
    license: latest?.license?.length ? latest.license.join(" OR ") : null,
    repositoryUrl: normaliseRepositoryUrl(latest?.source?.url ?? latest?.homepage ?? null),
    versions: versions.map((v) => v.version),
    publishedAt,
    versionFacts,
  };
}

export async function getPackagistPackage(name: string): Promise<Fetched<RegistryPackage>> {
  const r = await fetchUpstream({ source: "packagist", url: packagistMetadataUrl(name) }, (body) =>
    parsePackagist(name, body),
  );
  if (r.kind === "ok" && r.value.versions.length === 0) return { kind: "not_found", url: r.url };
  return r;
}
