// The real import graph of server/ and app/, shared by the cycle and layer tests (test/foundation/) and ESLint's
// "service/no-import-cycle" rule (eslint.config.mjs). It sees every form of import: static `import … from`,
// `export … from`, bare side-effect `import "./x"`, dynamic `import("./x")`, and, unless `runtimeOnly` is asked,
// type-only `import type` / `export type` too: a circle of types runs no code, but it still ties two modules
// together so that neither can be read, moved or tested without the other (issue 44, item 6). The layer count asks
// for run-time imports only. server/db/generated (Prisma's output) is not ours.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** The .ts and .tsx sources of a folder, tests, declarations and generated code left out. */
export function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "generated" || name === "node_modules" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith(".test.ts") && !name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The specifiers a source text imports; type-only imports excluded when `runtimeOnly`. */
export function importSpecifiers(text, { runtimeOnly = false } = {}) {
  const out = [];
  // import x from / import { a } from / export { a } from / export * from (and their `type` forms unless runtimeOnly)
  const from = runtimeOnly
    ? /(?:^|\n)\s*(?:import|export)\s+(?!type\b)[^;"'`]*?\bfrom\s+["']([^"']+)["']/g
    : /(?:^|\n)\s*(?:import|export)\s+[^;"'`]*?\bfrom\s+["']([^"']+)["']/g;
  for (const m of text.matchAll(from)) out.push(m[1]);
  // bare side-effect import: import "./x";
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+["']([^"']+)["']/g)) out.push(m[1]);
  // dynamic import("./x")
  for (const m of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) out.push(m[1]);
  return out;
}

/** The specifiers a source text imports at run time (type-only imports excluded). */
export const runtimeSpecifiers = (text) => importSpecifiers(text, { runtimeOnly: true });

/** Resolves a relative (or "@/") specifier to a source file, or null for packages and files outside the tree. */
export function resolveSpecifier(from, spec, projectRoot = process.cwd()) {
  let base;
  if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else if (spec.startsWith("@/")) base = path.join(projectRoot, spec.slice(2));
  else return null;
  const hit = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find(
    (c) => existsSync(c) && statSync(c).isFile(),
  );
  return hit ?? null;
}

/** Each file's imports, resolved to files of the scanned folders (run-time ones only when `runtimeOnly`). */
export function importGraph(dirs, projectRoot = process.cwd(), { runtimeOnly = false } = {}) {
  const graph = new Map();
  for (const file of dirs.flatMap((d) => sourceFiles(d))) {
    const deps = importSpecifiers(readFileSync(file, "utf8"), { runtimeOnly })
      .map((s) => resolveSpecifier(file, s, projectRoot))
      .filter((f) => f !== null);
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/** Strongly connected groups of more than one module, or a module importing itself (Tarjan), each sorted. */
export function cycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}
