// PyPI lockfiles: requirements.txt (only `==`/`===` pins are exact versions; includes, editables, URLs and ranges are
// skipped with the reason), poetry.lock (TOML `[[package]]` tables) and Pipfile.lock (JSON `default`/`develop`).
// Names are PEP 503 normalised, as the registry and OSV spell them.
import { parse as parseToml } from "smol-toml";
import {
  collector,
  expectArray,
  expectObject,
  fail,
  isObject,
  LineIndex,
  normalizePypiName,
  parseJson,
  str,
  TextScanner,
} from "./common";
import type { ParsedLockfile } from "./types";

const NAME = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:(\[[^\]]*\])\s*)?(.*)$/;

/** Drops a comment: "#" at the start or after whitespace (a "#" inside a URL fragment stays). */
function stripComment(line: string): string {
  if (line.startsWith("#")) return "";
  const at = line.search(/\s#/);
  return at === -1 ? line : line.slice(0, at);
}

export function parseRequirements(text: string): ParsedLockfile {
  const out = collector();
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let logical = stripComment(lines[i].replace(/\r$/, ""));
    // Continuation lines ("\" at the end) belong to the requirement that starts here.
    while (logical.endsWith("\\") && i + 1 < lines.length) {
      i++;
      logical = logical.slice(0, -1) + " " + stripComment(lines[i].replace(/\r$/, ""));
    }
    const line = logical.trim();
    if (!line) continue;
    if (line.startsWith("-")) {
      readOption(out, line, lineNo);
      continue;
    }
    // Options after the requirement (--hash=..., --config-settings) are not part of it.
    const optionAt = line.search(/\s--?[a-z]/);
    const requirement = (optionAt === -1 ? line : line.slice(0, optionAt)).trim();
    const semicolon = requirement.indexOf(";");
    const withoutMarker = (semicolon === -1 ? requirement : requirement.slice(0, semicolon)).trim();
    if (/^[a-z+]+:\/\//i.test(withoutMarker) || withoutMarker.startsWith(".") || withoutMarker.startsWith("/")) {
      const egg = /#egg=([A-Za-z0-9._-]+)/.exec(withoutMarker)?.[1];
      out.skip(egg ? normalizePypiName(egg) : withoutMarker, withoutMarker, urlReason(withoutMarker), lineNo);
      continue;
    }
    const match = NAME.exec(withoutMarker);
    if (!match) {
      out.skip(withoutMarker, withoutMarker, "not a requirement this reader understands", lineNo);
      continue;
    }
    const name = normalizePypiName(match[1]);
    const spec = match[3].trim();
    if (spec.startsWith("@")) {
      out.skip(name, spec, urlReason(spec.slice(1).trim()), lineNo);
      continue;
    }
    const pin = /^(===?)\s*([^\s,*]+)$/.exec(spec);
    if (!pin) {
      out.skip(
        name,
        spec,
        spec ? "not pinned to one version with == (a range or wildcard)" : "not pinned (no version)",
        lineNo,
      );
      continue;
    }
    out.add("pypi", name, pin[2], lineNo, null);
  }
  return out.result("requirements");
}

function urlReason(url: string): string {
  if (/^git\+|^hg\+|^svn\+|^bzr\+/.test(url)) return "version-control dependency (not from PyPI)";
  if (/^file:|^\.|^\//.test(url)) return "local file or folder (not from PyPI)";
  return "direct URL dependency (not from PyPI)";
}

function readOption(out: ReturnType<typeof collector>, line: string, lineNo: number) {
  const match = /^(-[A-Za-z]|--[A-Za-z-]+)(?:\s*=\s*|\s+)?(.*)$/.exec(line);
  const flag = match?.[1] ?? line;
  const arg = (match?.[2] ?? "").trim();
  if (flag === "-r" || flag === "--requirement" || flag === "-c" || flag === "--constraint") {
    out.skip(arg, line, `includes another file (${arg}), which was not sent: scan it separately`, lineNo);
  } else if (flag === "-e" || flag === "--editable") {
    const egg = /#egg=([A-Za-z0-9._-]+)/.exec(arg)?.[1];
    out.skip(egg ? normalizePypiName(egg) : arg, line, "editable install from a local folder or repository", lineNo);
  }
  // Index, find-links and install options name no dependency.
}

export function parsePoetry(text: string): ParsedLockfile {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const line = isObject(error) && typeof error.line === "number" ? error.line : null;
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    return fail("poetry", `not valid TOML: ${message}`, line);
  }
  // smol-toml keeps no positions: the n-th [[package]] table starts at the n-th "[[package]]" line.
  const headerLines: number[] = [];
  text.split("\n").forEach((l, i) => {
    if (l.trim() === "[[package]]") headerLines.push(i + 1);
  });
  const out = collector();
  const packages =
    doc.package === undefined ? [] : expectArray("poetry", doc.package, "[[package]]", headerLines[0] ?? null);
  packages.forEach((raw, i) => {
    const line = headerLines[i] ?? null;
    const entry = expectObject("poetry", raw, "a [[package]] table", line);
    const name = str(entry.name);
    const version = str(entry.version);
    if (!name || !version) fail("poetry", "a [[package]] without a name or a version", line);
    const source = isObject(entry.source) ? entry.source : null;
    const sourceType = source ? str(source.type) : null;
    if (sourceType && sourceType !== "legacy") {
      const where = str(source?.url) ?? "";
      const reason =
        sourceType === "git"
          ? "git dependency (not from PyPI)"
          : sourceType === "url"
            ? "direct URL dependency (not from PyPI)"
            : "local file or folder (not from PyPI)";
      out.skip(normalizePypiName(name), where, reason, line);
      return;
    }
    out.add("pypi", normalizePypiName(name), version, line, poetryDev(entry));
  });
  return out.result("poetry");
}

function poetryDev(entry: Record<string, unknown>): boolean | null {
  if (entry.category === "dev") return true;
  if (entry.category === "main") return false;
  if (Array.isArray(entry.groups)) return !entry.groups.includes("main");
  return null;
}

export function parsePipfileLock(text: string): ParsedLockfile {
  const lines = new LineIndex(text);
  const scan = new TextScanner(lines);
  const doc = expectObject("pipfile", parseJson("pipfile", lines), "the file", 1);
  const out = collector();
  for (const section of ["default", "develop"] as const) {
    if (doc[section] === undefined) continue;
    const sectionLine = scan.find(section);
    const deps = expectObject("pipfile", doc[section], `"${section}"`, sectionLine);
    for (const [rawName, raw] of Object.entries(deps)) {
      const line = scan.find(rawName);
      const entry = expectObject("pipfile", raw, `"${section}" entry "${rawName}"`, line);
      const name = normalizePypiName(rawName);
      const dev = section === "develop";
      if (entry.git !== undefined) out.skip(name, String(entry.git), "git dependency (not from PyPI)", line);
      else if (entry.path !== undefined)
        out.skip(name, String(entry.path), "local file or folder (not from PyPI)", line);
      else if (entry.file !== undefined)
        out.skip(name, String(entry.file), "direct URL dependency (not from PyPI)", line);
      else {
        const version = str(entry.version) ?? "";
        const pin = /^===?\s*([^\s,*]+)$/.exec(version);
        if (pin) out.add("pypi", name, pin[1], line, dev);
        else out.skip(name, version, "not pinned to one version with ==", line);
      }
    }
  }
  return out.result("pipfile");
}
