// Where the package sources live. Every reader runs at call time (never at import), so tests and operators can
// point a source elsewhere without a restart of the module graph.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { npmConfigRegistry, setting } from "../../env";

const trimSlash = (u: string) => u.replace(/\/+$/, "");

let npmrcRegistry: string | null | undefined;

/** npm's own `registry=` setting from the project's or the user's .npmrc, read once. */
function registryFromNpmrc(): string | null {
  if (npmrcRegistry !== undefined) return npmrcRegistry;
  npmrcRegistry = null;
  for (const file of [join(process.cwd(), ".npmrc"), join(homedir(), ".npmrc")]) {
    try {
      const m = /^\s*registry\s*=\s*(\S+)\s*$/m.exec(readFileSync(file, "utf8"));
      if (m) {
        npmrcRegistry = m[1];
        break;
      }
    } catch {
      // no such file: try the next one
    }
  }
  return npmrcRegistry;
}

/**
 * The npm registry's base URL: SERVICE_NPM_REGISTRY_URL, else npm's own setting (npm_config_registry, which npm
 * sets for scripts it runs, or `registry=` in .npmrc). Null when nothing configures it: the registry address is
 * deliberately never written into the code.
 */
export function npmRegistryUrl(): string | null {
  const url = setting("SERVICE_NPM_REGISTRY_URL") ?? npmConfigRegistry() ?? registryFromNpmrc();
  return url ? trimSlash(url) : null;
}

/** Base of the registry's bulk advisory endpoint (`npm audit`'s source); the registry itself by default. */
export function npmAdvisoryUrl(): string | null {
  const url = setting("SERVICE_NPM_ADVISORY_URL") ?? npmRegistryUrl();
  return url ? trimSlash(url) : null;
}

export function npmDownloadsUrl(): string {
  return trimSlash(setting("SERVICE_NPM_DOWNLOADS_URL"));
}

export function osvApiUrl(): string {
  return trimSlash(setting("SERVICE_OSV_API_URL"));
}

export function pypiUrl(): string {
  return trimSlash(setting("SERVICE_PYPI_URL"));
}

export function mavenRepositoryUrl(): string {
  return trimSlash(setting("SERVICE_MAVEN_REPOSITORY_URL"));
}

export function goProxyUrl(): string {
  return trimSlash(setting("SERVICE_GO_PROXY_URL"));
}

export function packagistUrl(): string {
  return trimSlash(setting("SERVICE_PACKAGIST_URL"));
}

/** Timeout of one upstream request. */
export function upstreamTimeoutMs(): number {
  return setting("SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS");
}

/** How long an upstream answer is reused (a repeated lookup still costs its unit; only the upstream call is saved). */
export function upstreamCacheTtlMs(): number {
  return setting("SERVICE_PACKAGE_CACHE_TTL_SECONDS") * 1000;
}

/** Upper bound on OSV advisories fetched in parallel for one report. */
export function osvFetchConcurrency(): number {
  return setting("SERVICE_OSV_FETCH_CONCURRENCY");
}
