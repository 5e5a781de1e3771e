// SBOMs: CycloneDX JSON (`components`, nested components included) and SPDX JSON (`packages[].externalRefs[]` of
// type purl). Every package is read from its package URL, so Maven (group:artifact) is covered here only; purls of
// ecosystems the service does not report on are skipped naming the ecosystem.
import { PackageURL } from "packageurl-js";
import type { Ecosystem } from "../versions";
import {
  collector,
  expectArray,
  expectObject,
  isObject,
  LineIndex,
  normalizePypiName,
  parseJson,
  str,
  TextScanner,
  type Collector,
} from "./common";
import { problemOf } from "./screen";
import type { LockfileFormat, ParsedLockfile } from "./types";

const PURL_TYPES: Record<string, Ecosystem> = {
  npm: "npm",
  pypi: "pypi",
  composer: "composer",
  maven: "maven",
  golang: "go",
};

/** A purl -> (ecosystem, registry name, version), or the reason it names no package version the service reports on. */
export function readPurl(purl: string): { ecosystem: Ecosystem; name: string; version: string } | { reason: string } {
  let parsed: PackageURL;
  try {
    parsed = PackageURL.fromString(purl);
  } catch (error) {
    return { reason: `unreadable package URL (${error instanceof Error ? error.message : String(error)})` };
  }
  const ecosystem = PURL_TYPES[parsed.type];
  if (!ecosystem) return { reason: `unsupported ecosystem "${parsed.type}"` };
  if (!parsed.version) return { reason: "the package URL names no version" };
  const ns = parsed.namespace ?? "";
  let name: string;
  if (ecosystem === "pypi") name = normalizePypiName(parsed.name);
  else if (ecosystem === "maven") {
    if (!ns) return { reason: "a Maven package URL without a group" };
    name = `${ns}:${parsed.name}`;
  } else if (ecosystem === "composer") name = (ns ? `${ns}/${parsed.name}` : parsed.name).toLowerCase();
  else name = ns ? `${ns}/${parsed.name}` : parsed.name;
  return { ecosystem, name, version: parsed.version };
}

function addPurl(out: Collector, label: string, purl: string, line: number | null) {
  const read = readPurl(purl);
  if ("reason" in read) out.skip(label, purl, read.reason, line);
  else out.add(read.ecosystem, read.name, read.version, line, null);
}

export function parseCycloneDx(text: string): ParsedLockfile {
  const format: LockfileFormat = "cyclonedx";
  const lines = new LineIndex(text);
  const scan = new TextScanner(lines);
  const doc = expectObject(format, parseJson(format, lines), "the file", 1);
  const out = collector();
  const walk = (value: unknown, what: string) => {
    for (const raw of expectArray(format, value, what, null)) {
      const component = expectObject(format, raw, "a component", null);
      const label = str(component.name) ?? "";
      const purl = str(component.purl);
      const line = purl ? scan.find(purl) : label ? scan.find(label) : null;
      if (purl) addPurl(out, label, purl, line);
      else out.skip(label, str(component.version) ?? "", "no package URL (purl)", line);
      if (component.components !== undefined) walk(component.components, `"components" of "${label}"`);
    }
  };
  if (doc.components !== undefined) walk(doc.components, '"components"');
  return { ...out.result(format), ...subjectOf(doc.metadata) };
}

/**
 * CycloneDX's `metadata.component`, the thing the BOM describes, as "group/name@version" ("@acme/web@main"). Only
 * plain text is kept: nothing the lockfile screen refuses (server/vulnerabilities/lockfiles/screen.ts), no C1 control
 * or bidirectional override that could make a history row read as something else, at most 200 characters.
 */
function subjectOf(metadata: unknown): { subject?: string } {
  const component = (metadata as { component?: { group?: unknown; name?: unknown; version?: unknown } } | null)
    ?.component;
  const plain = (v: unknown) => {
    const t = str(v)?.trim();
    return t && t.length <= 200 && !problemOf(t) && !/[\u0080-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(t)
      ? t
      : null;
  };
  const name = plain(component?.name);
  if (!name) return {};
  const group = plain(component?.group);
  const version = plain(component?.version);
  const subject = `${group ? `${group}/` : ""}${name}${version ? `@${version}` : ""}`;
  return subject.length <= 200 ? { subject } : {};
}

export function parseSpdx(text: string): ParsedLockfile {
  const format: LockfileFormat = "spdx";
  const lines = new LineIndex(text);
  const scan = new TextScanner(lines);
  const doc = expectObject(format, parseJson(format, lines), "the file", 1);
  const out = collector();
  const described = new Set(Array.isArray(doc.documentDescribes) ? doc.documentDescribes : []);
  const packages = doc.packages === undefined ? [] : expectArray(format, doc.packages, '"packages"', null);
  for (const raw of packages) {
    const pkg = expectObject(format, raw, "a package", null);
    const label = str(pkg.name) ?? "";
    const refs = Array.isArray(pkg.externalRefs) ? pkg.externalRefs.filter(isObject) : [];
    const purls = refs.filter((r) => r.referenceType === "purl").map((r) => str(r.referenceLocator));
    const found = purls.filter((p): p is string => p !== null);
    if (found.length === 0) {
      const line = label ? scan.find(label) : null;
      if (!described.has(pkg.SPDXID)) out.skip(label, str(pkg.versionInfo) ?? "", "no package URL (purl)", line);
      continue;
    }
    for (const purl of found) addPurl(out, label, purl, scan.find(purl));
  }
  return out.result(format);
}
