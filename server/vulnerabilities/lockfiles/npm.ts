// package-lock.json and npm-shrinkwrap.json (same format): v2 and v3 list every installed folder under `packages`
// ("node_modules/a/node_modules/b"); v1 nests `dependencies` recursively. Aliases resolve to the real package name,
// links (workspaces, `file:` folders), git and tarball-URL dependencies are skipped with the reason.
import {
  collector,
  expectObject,
  isObject,
  LineIndex,
  nonRegistryReason,
  parseJson,
  splitAtVersion,
  str,
  TextScanner,
  type Collector,
  type JsonObject,
} from "./common";
import type { LockfileFormat, ParsedLockfile } from "./types";

const REGISTRY_TARBALL = /\/-\/[^/]+\.tgz(\?.*)?$/;

function devOf(entry: JsonObject): boolean {
  return entry.dev === true;
}

export function parsePackageLock(text: string, format: LockfileFormat = "package-lock"): ParsedLockfile {
  const lines = new LineIndex(text);
  const scan = new TextScanner(lines);
  const doc = expectObject(format, parseJson(format, lines), "the file", 1);
  const out = collector();
  if (doc.packages !== undefined) {
    const packagesLine = scan.find("packages");
    const packages = expectObject(format, doc.packages, '"packages"', packagesLine);
    for (const [key, value] of Object.entries(packages)) {
      const line = key === "" ? null : scan.find(key);
      if (key === "") continue; // the project itself
      const entry = expectObject(format, value, `"packages" entry "${key}"`, line);
      const at = key.lastIndexOf("node_modules/");
      if (at === -1) continue; // a workspace's own folder: its link under node_modules/ is reported
      readEntry(format, out, key.slice(at + "node_modules/".length), entry, line);
    }
  } else if (doc.dependencies !== undefined) {
    readV1(format, out, scan, doc.dependencies, '"dependencies"', scan.find("dependencies"));
  }
  return out.result(format);
}

function readEntry(format: LockfileFormat, out: Collector, folderName: string, entry: JsonObject, line: number | null) {
  const name = str(entry.name) ?? folderName; // an alias ("foo": "npm:bar@1") records the real name
  const resolved = str(entry.resolved) ?? "";
  const version = str(entry.version);
  if (entry.link === true) {
    out.skip(folderName, resolved, `link to the local folder "${resolved}" (workspace or file: dependency)`, line);
    return;
  }
  const resolvedReason = resolved ? nonRegistryReason(resolved) : null;
  if (resolvedReason && !(resolvedReason === "tarball URL dependency" && REGISTRY_TARBALL.test(resolved))) {
    out.skip(name, resolved, resolvedReason, line);
    return;
  }
  if (!version) {
    out.skip(name, resolved, "no version recorded (not installed)", line);
    return;
  }
  const versionReason = nonRegistryReason(version);
  if (versionReason) {
    out.skip(name, version, versionReason, line);
    return;
  }
  out.add("npm", name, version, line, devOf(entry));
}

function readV1(
  format: LockfileFormat,
  out: Collector,
  scan: TextScanner,
  value: unknown,
  what: string,
  line: number | null,
) {
  const deps = expectObject(format, value, what, line);
  for (const [key, raw] of Object.entries(deps)) {
    const entryLine = scan.find(key);
    const entry = expectObject(format, raw, `dependency "${key}"`, entryLine);
    let name = key;
    let version = str(entry.version) ?? "";
    if (version.startsWith("npm:")) {
      const real = splitAtVersion(version.slice(4));
      if (real) [name, version] = real;
    }
    const resolved = str(entry.resolved) ?? "";
    const reason =
      nonRegistryReason(version) ?? (resolved && !REGISTRY_TARBALL.test(resolved) ? nonRegistryReason(resolved) : null);
    if (!version) out.skip(key, resolved, "no version recorded (not installed)", entryLine);
    else if (reason) out.skip(key, version, reason, entryLine);
    else out.add("npm", name, version, entryLine, devOf(entry));
    if (entry.dependencies !== undefined) {
      const nestedLine = scan.find("dependencies");
      readV1(format, out, scan, entry.dependencies, `"dependencies" of "${key}"`, nestedLine);
    }
  }
}

export function looksLikePackageLock(doc: JsonObject): boolean {
  return typeof doc.lockfileVersion === "number" && (isObject(doc.packages) || isObject(doc.dependencies));
}
