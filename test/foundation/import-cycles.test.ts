// No circles at all (issues 11, 23, 44): no module under server/ or app/ reaches itself again through its imports,
// type-only imports included. The graph (scripts/import-graph.mjs, which ESLint's "service/no-import-cycle" rule reads
// too) sees static, re-exporting, bare side-effect, dynamic and type-only imports. Prisma's generated client is not
// ours.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, importGraph, importSpecifiers, runtimeSpecifiers } from "./import-graph";

const root = path.join(process.cwd(), "server");
const app = path.join(process.cwd(), "app");

describe("import cycles", () => {
  it("no module under server/ or app/ imports itself back, by any form of import, type-only ones included", () => {
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

  it("finds a circle closed only by a type-only import, which the run-time graph does not have", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cycles-"));
    try {
      mkdirSync(path.join(dir, "m"));
      writeFileSync(path.join(dir, "m", "a.ts"), 'import { b } from "./b";\nexport type A = { n: number };\n');
      writeFileSync(path.join(dir, "m", "b.ts"), 'import type { A } from "./a";\nexport const b = (a: A) => a.n;\n');
      const a = path.join(dir, "m", "a.ts");
      const b = path.join(dir, "m", "b.ts");
      expect(cycles(importGraph([dir], dir))).toEqual([[a, b]]);
      expect(cycles(importGraph([dir], dir, { runtimeOnly: true }))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("sees static, re-exporting, bare side-effect, dynamic and type-only imports; the run-time list leaves types out", () => {
    const text = [
      'import { a } from "./static";',
      'import "./bare";',
      'export * from "./reexport";',
      'export { b } from "./reexport-named";',
      'const c = () => import("./dynamic");',
      'import type { T } from "./type-only";',
      'export type { U } from "./type-reexport";',
    ].join("\n");
    const runtime = ["./bare", "./dynamic", "./reexport", "./reexport-named", "./static"];
    expect(runtimeSpecifiers(text).sort()).toEqual(runtime.sort());
    expect(importSpecifiers(text).sort()).toEqual([...runtime, "./type-only", "./type-reexport"].sort());
  });
});
