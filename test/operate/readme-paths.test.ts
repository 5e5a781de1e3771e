// The README and docs/ cite files of this repository by path (`server/queue/scheduled.ts`); a cited path that does not
// exist misleads a newcomer (issue 42, item 14: the README named a server/schedule/ that had gone). Every such path is
// checked here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOTS = ["server", "scripts", "app", "test", "e2e", "clients", "bench", "prisma", "docs", "lint", "public"];
const CITED = new RegExp(`\`((?:${ROOTS.join("|")})/[A-Za-z0-9_./\\[\\]-]*)\``, "g");

// Benchmark result files are kept out of git (docs/benchmarks.md cites them as what a run on that machine wrote).
const UNTRACKED = ["bench/results/"];

function citedPaths(text: string): string[] {
  return [...text.matchAll(CITED)].map((m) => m[1]!.replace(/[.,:]$/, ""));
}

const documents = [
  "README.md",
  ...readdirSync("docs")
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

describe("paths cited in the README and docs/", () => {
  it.each(documents)("%s cites only paths that exist", (doc) => {
    const missing = citedPaths(readFileSync(doc, "utf8")).filter(
      (p) => !p.includes("*") && !UNTRACKED.some((u) => p.startsWith(u)) && !existsSync(path.resolve(p)),
    );
    expect(missing).toEqual([]);
  });

  it("the check finds a cited path that is gone (it can fail)", () => {
    expect(citedPaths("runs the task (`server/schedule/`), see `server/queue/scheduled.ts`.")).toEqual([
      "server/schedule/",
      "server/queue/scheduled.ts",
    ]);
    expect(existsSync("server/schedule/")).toBe(false);
  });
});
