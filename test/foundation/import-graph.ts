// The real import graph of server/ (and app/), shared by the cycle and layer tests. It sees every form of import that
// runs code: static `import … from`, `export … from`, bare side-effect `import "./x"`, and dynamic `import("./x")`.
// Type-only imports (`import type`, `export type`) are left out on purpose: they vanish at compile time, so they
// cannot make a module run, or see another half-initialised. server/db/generated (Prisma's output) is not ours.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "generated" || name === "node_modules" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith(".test.ts") && !name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The specifiers a source text imports at run time (type-only imports excluded). */
export function runtimeSpecifiers(text: string): string[] {
  const out: string[] = [];
  // import x from / import { a } from / export { a } from / export * from, not `import type` / `export type`
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\b)[^;"'`]*?\bfrom\s+["']([^"']+)["']/g))
    out.push(m[1]!);
  // bare side-effect import: import "./x";
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+["']([^"']+)["']/g)) out.push(m[1]!);
  // dynamic import("./x")
  for (const m of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) out.push(m[1]!);
  return out;
}

/** Resolves a relative (or "@/") specifier to a source file, or null for packages and files outside the tree. */
export function resolveSpecifier(from: string, spec: string, projectRoot = process.cwd()): string | null {
  let base: string;
  if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else if (spec.startsWith("@/")) base = path.join(projectRoot, spec.slice(2));
  else return null;
  const hit = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find(
    (c) => existsSync(c) && statSync(c).isFile(),
  );
  return hit ?? null;
}

/** Each file's run-time imports, resolved to files of the scanned folders. */
export function importGraph(dirs: string[], projectRoot = process.cwd()): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sourceFiles(d))) {
    const deps = runtimeSpecifiers(readFileSync(file, "utf8"))
      .map((s) => resolveSpecifier(file, s, projectRoot))
      .filter((f): f is string => f !== null);
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}
