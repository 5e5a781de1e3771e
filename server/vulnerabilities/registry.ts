// One call that finds a package in its ecosystem's registry.
import { getGoModule } from "../providers/packages/go-proxy";
import type { Fetched } from "../providers/packages/http";
import { getMavenPackage, parseMavenCoordinate } from "../providers/packages/maven";
import { getNpmPackage } from "../providers/packages/npm-registry";
import { getPackagistPackage } from "../providers/packages/packagist";
import { getPypiPackage } from "../providers/packages/pypi";
import type { RegistryPackage } from "../providers/packages/registry-types";
import type { Ecosystem } from "./versions";

export async function lookupRegistry(eco: Ecosystem, coordinate: string): Promise<Fetched<RegistryPackage>> {
  switch (eco) {
    case "npm":
      return getNpmPackage(coordinate);
    case "pypi":
      return getPypiPackage(coordinate);
    case "composer":
      return getPackagistPackage(coordinate.toLowerCase());
    case "go":
      return getGoModule(coordinate);
    case "maven": {
      const c = parseMavenCoordinate(coordinate);
      if (!c) return { kind: "not_found", url: "" };
      return getMavenPackage(c);
    }
  }
}

/**
 * Each registry named as a sentence names it, article included where the name takes one ("the npm registry", but
 * "PyPI", "Packagist": "the PyPI is unavailable" was what a user read). report-common.ts `sentence` starts a sentence
 * with one.
 */
export const REGISTRY_NAME: Record<Ecosystem, string> = {
  npm: "the npm registry",
  pypi: "PyPI",
  composer: "Packagist",
  go: "the Go module proxy",
  maven: "the Maven repository",
};
