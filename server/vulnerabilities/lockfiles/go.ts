// Go modules: go.sum lists every module version the build checked (a version's "/go.mod" line and its tree line
// count once), go.mod lists the required versions; a `replace` to a local path means no registry version is built.
import { collector, fail } from "./common";
import type { ParsedLockfile } from "./types";

export function parseGoSum(text: string): ParsedLockfile {
  const out = collector();
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const fields = line.split(/\s+/);
    if (fields.length !== 3 || !fields[2].startsWith("h1:") || !fields[1].startsWith("v"))
      fail("go-sum", `expected "<module> <version> h1:<hash>", found "${line.slice(0, 80)}"`, i + 1);
    const version = fields[1].endsWith("/go.mod") ? fields[1].slice(0, -"/go.mod".length) : fields[1];
    out.add("go", fields[0], version, i + 1, null);
  });
  return out.result("go-sum");
}

type Require = { path: string; version: string; line: number };
type Replace = { path: string; version: string | null; target: string; targetVersion: string | null; line: number };

function unquote(s: string): string {
  return s.length >= 2 && (s[0] === '"' || s[0] === "`") ? s.slice(1, -1) : s;
}

export function parseGoMod(text: string): ParsedLockfile {
  const requires: Require[] = [];
  const replaces: Replace[] = [];
  let block: string | null = null;
  text.split("\n").forEach((raw, i) => {
    const lineNo = i + 1;
    const comment = raw.indexOf("//");
    const line = (comment === -1 ? raw : raw.slice(0, comment)).trim();
    if (!line) return;
    let directive: string;
    let rest: string;
    if (block) {
      if (line === ")") {
        block = null;
        return;
      }
      directive = block;
      rest = line;
    } else {
      const space = line.search(/\s/);
      directive = space === -1 ? line : line.slice(0, space);
      rest = space === -1 ? "" : line.slice(space).trim();
      if (rest === "(") {
        block = directive;
        return;
      }
    }
    const fields = rest.split(/\s+/).map(unquote);
    if (directive === "require") {
      if (fields.length !== 2) fail("go-mod", `expected "<module> <version>" in require, found "${rest}"`, lineNo);
      requires.push({ path: fields[0], version: fields[1], line: lineNo });
    } else if (directive === "replace") {
      const arrow = fields.indexOf("=>");
      if (arrow < 1 || arrow > 2 || fields.length < arrow + 2)
        fail("go-mod", `expected "<module> [version] => <target> [version]", found "${rest}"`, lineNo);
      replaces.push({
        path: fields[0],
        version: arrow === 2 ? fields[1] : null,
        target: fields[arrow + 1],
        targetVersion: fields[arrow + 2] ?? null,
        line: lineNo,
      });
    }
  });
  if (block) fail("go-mod", `the ${String(block)} block is not closed with ")"`, text.split("\n").length);
  const out = collector();
  for (const req of requires) {
    const replace =
      replaces.find((r) => r.path === req.path && r.version === req.version) ??
      replaces.find((r) => r.path === req.path && r.version === null);
    if (!replace) out.add("go", req.path, req.version, req.line, null);
    else if (replace.targetVersion === null || /^\.{1,2}\/|^\//.test(replace.target))
      out.skip(
        req.path,
        `${req.version} => ${replace.target}`,
        `replaced by the local path "${replace.target}"`,
        req.line,
      );
    else out.add("go", replace.target, replace.targetVersion, req.line, null);
  }
  return out.result("go-mod");
}
