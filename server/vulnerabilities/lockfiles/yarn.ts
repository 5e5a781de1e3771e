// yarn.lock in both of its formats. v1 is yarn's own indentation format, read here line by line (so every entry
// keeps its line); berry (yarn 2+) is YAML with a `__metadata` entry and a `resolution` per entry that names the
// real package and version ("name@npm:1.2.3"), which also resolves aliases and `patch:` entries.
import { isMap, isScalar } from "yaml";
import { collector, fail, nonRegistryReason, parseYaml, splitAtVersion, type Collector } from "./common";
import type { ParsedLockfile } from "./types";

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) {
    try {
      return JSON.parse(t) as string;
    } catch {
      return t.slice(1, -1);
    }
  }
  return t;
}

/** Splits an entry header ("a@^1", "a@~1.2":) into its specifiers. */
function headerSpecs(header: string): string[] {
  const body = header.trimEnd().replace(/:$/, "");
  const specs: string[] = [];
  let cur = "";
  let quoted = false;
  for (const c of body) {
    if (c === '"') quoted = !quoted;
    if (c === "," && !quoted) {
      specs.push(unquote(cur));
      cur = "";
    } else cur += c;
  }
  if (cur.trim()) specs.push(unquote(cur));
  return specs.filter((s) => s.length > 0);
}

export function parseYarnV1(text: string): ParsedLockfile {
  const out = collector();
  const lines = text.split("\n");
  let header: { specs: string[]; line: number } | null = null;
  let fields: Record<string, string> = {};
  const flush = () => {
    if (header) readV1Entry(out, header.specs, header.line, fields);
    header = null;
    fields = {};
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, "");
    if (raw.trim() === "" || raw.trimStart().startsWith("#")) continue;
    const indent = raw.length - raw.trimStart().length;
    if (indent === 0) {
      flush();
      if (!raw.endsWith(":"))
        fail("yarn-v1", `expected an entry header ending in ":", found "${raw.slice(0, 80)}"`, i + 1);
      header = { specs: headerSpecs(raw), line: i + 1 };
      continue;
    }
    if (!header) fail("yarn-v1", "an indented line outside any entry", i + 1);
    if (indent !== 2) continue; // nested maps (dependencies:) are not needed
    const body = raw.trim();
    const space = body.search(/[\s:]/);
    if (space === -1) continue;
    const key = unquote(body.slice(0, space));
    const value = body.slice(space).replace(/^:?\s*/, "");
    if (value) fields[key] = unquote(value);
  }
  flush();
  return out.result("yarn-v1");
}

function readV1Entry(out: Collector, specs: string[], line: number, fields: Record<string, string>) {
  const first = specs[0] ?? "";
  const split = splitAtVersion(first);
  if (!split) {
    out.skip(first, "", "entry header names no version range", line);
    return;
  }
  let [name, range] = split;
  if (range.startsWith("npm:")) {
    const real = splitAtVersion(range.slice(4));
    if (real) [name, range] = real;
    else range = range.slice(4); // "foo@npm:^1" is foo itself
  }
  const version = fields.version;
  const resolved = fields.resolved ?? "";
  const reason =
    nonRegistryReason(range) ?? (resolved && !/\/-\/[^/]+\.tgz/.test(resolved) ? nonRegistryReason(resolved) : null);
  if (reason) {
    out.skip(split[0], range, reason, line);
    return;
  }
  if (!version) {
    out.skip(name, range, "no version recorded", line);
    return;
  }
  out.add("npm", name, version, line, null);
}

/** "name@npm:1.2.3", "name@patch:name@npm%3A1.2.3#...", "name@workspace:." -> a registry version or a reason. */
function readResolution(resolution: string): { name: string; version: string } | { reason: string } {
  const split = splitAtVersion(resolution);
  if (!split) return { reason: "resolution names no version" };
  const [name, rest] = split;
  // A custom registry adds "::__archiveUrl=..." after the version.
  if (rest.startsWith("npm:")) return { name, version: rest.slice(4).split("::")[0] };
  if (rest.startsWith("patch:")) {
    const hash = rest.indexOf("#");
    let inner = rest.slice("patch:".length, hash === -1 ? undefined : hash);
    try {
      inner = decodeURIComponent(inner);
    } catch {
      return { reason: "unreadable patch: resolution" };
    }
    return readResolution(inner);
  }
  const protocol = /^([a-z+]+):/.exec(rest)?.[1] ?? "";
  if (protocol === "workspace") return { reason: "workspace package" };
  return { reason: nonRegistryReason(rest) ?? `${protocol || "unknown"}: dependency, not from the npm registry` };
}

export function parseYarnBerry(text: string): ParsedLockfile {
  const out = collector();
  const { doc, lineCounter } = parseYaml("yarn-berry", text);
  if (!isMap(doc.contents)) fail("yarn-berry", "the file is not a map of entries", 1);
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : "";
    const line = isScalar(pair.key) && pair.key.range ? lineCounter.linePos(pair.key.range[0]).line : null;
    if (key === "__metadata") continue;
    if (!isMap(pair.value)) fail("yarn-berry", `entry "${key}" is not a map`, line);
    const resolution: unknown = pair.value.get("resolution");
    const spec = key.split(",")[0].trim();
    if (typeof resolution !== "string") {
      out.skip(splitAtVersion(spec)?.[0] ?? spec, spec, "no resolution recorded", line);
      continue;
    }
    const read = readResolution(resolution);
    if ("reason" in read) {
      if (resolution.endsWith("@workspace:.")) continue; // the project itself
      out.skip(splitAtVersion(resolution)?.[0] ?? resolution, resolution, read.reason, line);
    } else out.add("npm", read.name, read.version, line, null);
  }
  return out.result("yarn-berry");
}
