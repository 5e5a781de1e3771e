// pnpm-lock.yaml: lockfileVersion 5 keys packages as "/name/1.0.0_peer@2", 6 as "/name@1.0.0(peer@2)", 9 as
// "name@1.0.0" in `packages` and with peer suffixes in `snapshots`. Peer suffixes are not part of the version.
// Links to local folders (workspaces) in the importers and git, file and tarball packages are skipped with a reason.
import { isMap, isScalar, type LineCounter, type YAMLMap } from "yaml";
import { collector, fail, isObject, nonRegistryReason, parseYaml, splitAtVersion, str, type Collector } from "./common";
import type { ParsedLockfile } from "./types";

/** "/@scope/name/1.0.0_peer@2" (v5) or "/name@1.0.0(peer@2)" (v6, v9) -> name and version. */
function readKey(key: string, v5: boolean): [string, string] | null {
  const k = key.startsWith("/") ? key.slice(1) : key;
  if (v5) {
    const parts = k.split("/");
    const nameParts = k.startsWith("@") ? 2 : 1;
    if (parts.length !== nameParts + 1) return null;
    return [parts.slice(0, nameParts).join("/"), parts[nameParts].split("_")[0]];
  }
  const paren = k.indexOf("(");
  const split = splitAtVersion(paren === -1 ? k : k.slice(0, paren));
  if (!split) return null;
  return split;
}

export function parsePnpm(text: string): ParsedLockfile {
  const { doc, lineCounter } = parseYaml("pnpm", text);
  if (!isMap(doc.contents)) fail("pnpm", "the file is not a map", 1);
  const root = doc.contents;
  const version = parseFloat(String(root.get("lockfileVersion") ?? ""));
  const v5 = Number.isFinite(version) && version < 6;
  const out = collector();
  readImporters(out, root, lineCounter);
  for (const section of ["packages", "snapshots"]) {
    const node = root.get(section, true);
    if (node === undefined || node === null) continue;
    const sectionLine = lineOfKey(root, section, lineCounter);
    if (!isMap(node)) fail("pnpm", `"${section}" is not a map`, sectionLine);
    for (const pair of (node as YAMLMap).items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : "";
      const line = isScalar(pair.key) && pair.key.range ? lineCounter.linePos(pair.key.range[0]).line : null;
      const entry: unknown = isMap(pair.value) ? pair.value.toJSON() : {};
      readPackage(out, key, isObject(entry) ? entry : {}, line, v5);
    }
  }
  return out.result("pnpm");
}

function readPackage(out: Collector, key: string, entry: Record<string, unknown>, line: number | null, v5: boolean) {
  const resolution = isObject(entry.resolution) ? entry.resolution : {};
  const dev = typeof entry.dev === "boolean" ? entry.dev : null;
  const kind = str(resolution.type);
  const tarball = str(resolution.tarball);
  const parsed = readKey(key, v5);
  const name = str(entry.name) ?? parsed?.[0] ?? key;
  if (kind === "git" || kind === "directory") {
    out.skip(name, key, kind === "git" ? "git dependency" : "local folder dependency", line);
    return;
  }
  if (tarball && !/\/-\/[^/]+\.tgz$/.test(tarball)) {
    out.skip(name, tarball, nonRegistryReason(tarball) ?? "tarball URL dependency", line);
    return;
  }
  if (!parsed) {
    out.skip(name, key, nonRegistryReason(key) ?? "package key names no version", line);
    return;
  }
  const reason = nonRegistryReason(parsed[1]);
  if (reason) {
    out.skip(parsed[0], parsed[1], reason, line);
    return;
  }
  out.add("npm", parsed[0], parsed[1], line, dev);
}

function lineOfKey(map: YAMLMap, key: string, lineCounter: LineCounter): number | null {
  const pair = map.items.find((p) => isScalar(p.key) && p.key.value === key);
  return pair && isScalar(pair.key) && pair.key.range ? lineCounter.linePos(pair.key.range[0]).line : null;
}

/** `link:` dependencies of the projects (workspaces, local folders), in v5's top level or any version's importers. */
function readImporters(out: Collector, root: YAMLMap, lineCounter: LineCounter) {
  const projects: YAMLMap[] = [root];
  const importers = root.get("importers", true);
  if (isMap(importers)) for (const p of importers.items) if (isMap(p.value)) projects.push(p.value);
  for (const project of projects) {
    for (const group of ["dependencies", "devDependencies", "optionalDependencies"]) {
      const deps = project.get(group, true);
      if (!isMap(deps)) continue;
      for (const pair of deps.items) {
        const name = isScalar(pair.key) ? String(pair.key.value) : "";
        const value: unknown = isMap(pair.value) ? pair.value.toJSON() : isScalar(pair.value) ? pair.value.value : null;
        const version = isObject(value) ? str(value.version) : str(value);
        if (!version?.startsWith("link:")) continue;
        const line = isScalar(pair.key) && pair.key.range ? lineCounter.linePos(pair.key.range[0]).line : null;
        out.skip(name, version, `link to the local folder "${version.slice(5)}" (workspace or local package)`, line);
      }
    }
  }
}
