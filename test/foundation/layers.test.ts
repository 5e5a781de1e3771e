// Layers point one way: app -> api -> domain -> providers/db. A domain module (anything in server/ outside
// server/api/) must not import the API layer. Known exceptions would be listed with why, so the list can only
// shrink: a new upward import fails this test, and so does a listed one that has gone (remove it from the list).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.join(process.cwd(), "server");

/** Known upward imports (issue 11 debt), each file with what it needs from the API layer. */
const KNOWN: Record<string, string> = {};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === "generated" ? [] : files(full);
    return name.endsWith(".ts") ? [full] : [];
  });
}

function upwardImports(root: string): string[] {
  const out: string[] = [];
  for (const file of files(root)) {
    const rel = path.relative(root, file).split(path.sep).join("/");
    if (rel.startsWith("api/")) continue;
    const text = readFileSync(file, "utf8");
    const specifiers = [...text.matchAll(/(?:from\s+|import\()\s*["']([^"']+)["']/g)].map((m) => m[1]!);
    const up = specifiers.some(
      (s) => s.startsWith(".") && path.relative(root, path.resolve(path.dirname(file), s)).split(path.sep)[0] === "api",
    );
    if (up) out.push(rel);
  }
  return out.sort();
}

describe("layers", () => {
  it("no domain module imports the API layer beyond the known list, and the list holds no file that stopped", () => {
    const found = upwardImports(root);
    expect(
      found.filter((f) => !(f in KNOWN)),
      "new upward imports into server/api",
    ).toEqual([]);
    expect(
      Object.keys(KNOWN).filter((f) => !found.includes(f)),
      "listed files that no longer import server/api: remove them",
    ).toEqual([]);
  });

  it("the scan sees an upward import, static or dynamic (the check can fail)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "layers-"));
    try {
      for (const sub of ["api", "bulk", "links"]) mkdirSync(path.join(dir, sub));
      writeFileSync(path.join(dir, "api", "context.ts"), "export type Context = {};\n");
      writeFileSync(path.join(dir, "bulk", "worker.ts"), 'import type { Context } from "../api/context";\n');
      writeFileSync(path.join(dir, "links", "caller.ts"), 'export const load = () => import("../api/context");\n');
      writeFileSync(path.join(dir, "links", "fine.ts"), 'import { x } from "../bulk/worker";\n');
      expect(upwardImports(dir)).toEqual(["bulk/worker.ts", "links/caller.ts"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
