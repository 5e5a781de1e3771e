// Layers one way (issues 11, 23): no module under server/ or app/ reaches itself again through its imports. The graph
// (./import-graph.ts) sees static, re-exporting, bare side-effect and dynamic imports; type-only imports are left out
// on purpose, since they vanish at compile time and cannot run a module. Prisma's generated client is not ours.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, runtimeSpecifiers } from "./import-graph";

const root = path.join(process.cwd(), "server");
const app = path.join(process.cwd(), "app");

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
  it("no module under server/ or app/ imports itself back, by any run-time form of import", () => {
    const rel = cycles(importGraph([root, app])).map((group) => group.map((f) => path.relative(process.cwd(), f)));
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
    const real = importGraph([root]);
    expect(real.get(path.join(root, "api", "trpc.ts"))).toContain(path.join(root, "errors.ts"));
  });

  it("sees static, re-exporting, bare side-effect and dynamic imports, and leaves type-only ones out", () => {
    const text = [
      'import { a } from "./static";',
      'import "./bare";',
      'export * from "./reexport";',
      'export { b } from "./reexport-named";',
      'const c = () => import("./dynamic");',
      'import type { T } from "./type-only";',
      'export type { U } from "./type-reexport";',
    ].join("\n");
    expect(runtimeSpecifiers(text).sort()).toEqual(
      ["./bare", "./dynamic", "./reexport", "./reexport-named", "./static"].sort(),
    );
    const graph = new Map([
      ["root.ts", ["bulk-procedures.ts"]],
      ["bulk-procedures.ts", ["root.ts"]],
    ]);
    expect(cycles(graph)).toEqual([["bulk-procedures.ts", "root.ts"]]);
  });
});
