// Layers one way (issue 11): no module under server/ reaches itself again through its static imports. Type-only
// imports vanish at compile time and lazy `import()` calls run after every module has loaded, so neither can
// make a module see another half-initialised; both are left out. server/db/generated (Prisma's output) is not ours.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.join(process.cwd(), "server");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "generated" ? [] : sourceFiles(full);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [full] : [];
  });
}

/** Static value imports (and re-exports) of each file, resolved to files under server/. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, "utf8");
    const specifiers = [
      ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+["']([^"']+)["']/g),
    ].map((m) => m[1]!);
    const deps: string[] = [];
    for (const s of specifiers) {
      if (!s.startsWith(".")) continue;
      const base = path.resolve(path.dirname(file), s);
      const hit = [`${base}.ts`, path.join(base, "index.ts")].find((c) => existsSync(c));
      if (hit) deps.push(hit);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** Strongly connected groups of more than one module, or a module importing itself (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("import cycles", () => {
  it("no module under server/ imports itself back through its static imports", () => {
    const rel = cycles(importGraph()).map((group) => group.map((f) => path.relative(root, f)));
    expect(rel).toEqual([]);
  });

  it("the check finds a cycle when there is one, and the graph it reads is the real one", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c"]]);
    const real = importGraph();
    expect(real.get(path.join(root, "api", "trpc.ts"))).toContain(path.join(root, "errors.ts"));
  });
});
