// The Go module proxy protocol (GOPROXY): /@v/list lists tagged versions, /@latest names the latest (a
// pseudo-version when nothing is tagged), /@v/{version}.info gives a version's time. Module paths are escaped
// by writing each capital letter as "!" plus its lower case.
import { goProxyUrl } from "./config";
import { fetchUpstream, type Fetched } from "./http";
import type { RegistryPackage } from "./registry-types";

export function escapeModulePath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

function moduleBase(modulePath: string): string {
  return `${goProxyUrl()}/${escapeModulePath(modulePath).split("/").map(encodeURIComponent).join("/")}`;
}

export function goListUrl(modulePath: string): string {
  return `${moduleBase(modulePath)}/@v/list`;
}

type Info = { Version: string; Time?: string };

function parseInfo(body: string): Info {
  const doc = JSON.parse(body) as Info;
  if (typeof doc.Version !== "string") throw new Error("not a version info document");
  return doc;
}

/** Source repository of well-known hosts, derived from the module path itself (the proxy carries no metadata). */
function repositoryOf(modulePath: string): string | null {
  const m = /^(github\.com|gitlab\.com|bitbucket\.org)\/([^/]+)\/([^/]+)/.exec(modulePath);
  return m ? `https://${m[1]}/${m[2]}/${m[3]}` : null;
}

// The proxy answers 404 or 410 Gone for a module it cannot find.
const NOT_FOUND = [404, 410];

export async function getGoModule(modulePath: string): Promise<Fetched<RegistryPackage>> {
  const list = await fetchUpstream(
    { source: "go", url: goListUrl(modulePath), accept: "text/plain", notFoundStatuses: NOT_FOUND },
    (body) =>
      body
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean),
  );
  if (list.kind !== "ok") return list;
  const latest = await fetchUpstream(
    { source: "go", url: `${moduleBase(modulePath)}/@latest`, notFoundStatuses: NOT_FOUND },
    parseInfo,
  );
  if (latest.kind === "unavailable") return latest;
  if (latest.kind === "not_found" && list.value.length === 0) return { kind: "not_found", url: list.url };
  const versions = [...list.value];
  const publishedAt: Record<string, string> = {};
  if (latest.kind === "ok") {
    if (!versions.includes(latest.value.Version)) versions.push(latest.value.Version);
    if (latest.value.Time) publishedAt[latest.value.Version] = latest.value.Time;
  }
  return {
    ...list,
    value: {
      name: modulePath,
      latestVersion: latest.kind === "ok" ? latest.value.Version : null,
      description: null,
      license: null,
      repositoryUrl: repositoryOf(modulePath),
      versions,
      publishedAt,
    },
  };
}

/** Time of one version (list answers carry none); null when the proxy cannot tell. */
export async function getGoVersionTime(modulePath: string, version: string): Promise<string | null> {
  const r = await fetchUpstream(
    {
      source: "go",
      url: `${moduleBase(modulePath)}/@v/${encodeURIComponent(version)}.info`,
      notFoundStatuses: NOT_FOUND,
    },
    parseInfo,
  );
  return r.kind === "ok" ? (r.value.Time ?? null) : null;
}
