// Layers point one way: app -> startup -> api -> domain -> providers/db. A domain module (anything in server/ outside
// server/api/ and the start-up wiring in server/startup/) must not import the API layer. Known exceptions would be listed with why, so the list can only
// shrink: a new upward import fails this test, and so does a listed one that has gone (remove it from the list).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph } from "./import-graph";

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
    if (rel.startsWith("api/") || rel.startsWith("startup/")) continue;
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

/**
 * The areas of server/ from the top (start-up wiring) to the bottom (settings, errors, ids): an area may import the
 * ones below it. The order was taken from the real graph after issue 23 moved the wiring into server/startup/; the
 * imports that still run upward are counted, and may not grow past UPWARD_LIMIT. A new area goes where it belongs.
 */
const AREAS = [
  "startup",
  "admin",
  "api",
  "weights",
  "cases",
  "users",
  "monitors",
  "bulk",
  "auth",
  "cidr",
  "domain",
  "online-check",
  "site-scans",
  "senders",
  "maintenance",
  "abuse",
  "quota",
  "analytics",
  "hosts",
  "projects",
  "vulnerabilities",
  "asn",
  "assessment",
  "ip",
  "device",
  "geo",
  "rules",
  "lists",
  "email",
  "phone",
  "passwords",
  "links",
  "blocklists",
  "dns",
  "webhooks",
  "workspaces",
  "providers",
  "keys",
  "queue",
  "feeds",
  "billing",
  "net",
  "ratelimit",
  "history",
  "events",
  "reports",
  "captcha",
  "http",
  "secrets",
  "operate",
  "scoring",
  "pages",
  "db",
  "env",
  "audit",
  "plans",
  "timestamps",
  "countries",
  "ids",
  "process-wide",
  "errors",
];
const UPWARD_LIMIT = 15;

/**
 * Modules outside server/ that server/ may import, each with why. Anything else out of server/ counts as upward.
 * clients/cli/src/project-name.ts: the project name rule, which service-scan must carry in its own tarball (it is
 * packed and installed alone), so the service reads it from there; it imports nothing. clients/cli/src/policy-rule.ts:
 * the --fail-on rule, which the service applies to a scan sent with fail_on_new, for the same reason; it imports nothing.
 */
const OUTSIDE_ALLOWED = ["clients/cli/src/project-name.ts", "clients/cli/src/policy-rule.ts"];

/** Imports out of server/db/ still allowed: none (the outage log and the backup moved up, start-up hands in the
 * pool's error report and logs the migrations applied). */
const DB_KNOWN: string[] = [];

function areaOf(serverRoot: string, file: string): string {
  const parts = path.relative(serverRoot, file).split(path.sep);
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.tsx?$/, "");
}

/** Imports (file to file, any run-time form) from an area to one listed above it. */
function upwardAreaImports(serverRoot: string, order: string[]): string[] {
  const out: string[] = [];
  for (const [file, deps] of importGraph([serverRoot], undefined, { runtimeOnly: true })) {
    const from = areaOf(serverRoot, file);
    for (const dep of deps) {
      if (OUTSIDE_ALLOWED.some((m) => dep === path.join(serverRoot, "..", m))) continue;
      const to = areaOf(serverRoot, dep);
      if (from !== to && order.indexOf(from) > order.indexOf(to))
        out.push(`${path.relative(serverRoot, file)} -> ${path.relative(serverRoot, dep)}`);
    }
  }
  return out.sort();
}

describe("areas", () => {
  it("server/db/ imports nothing else of server/ but the settings module (server/env.ts)", () => {
    const dbRoot = path.join(root, "db");
    const outside = [...importGraph([dbRoot], undefined, { runtimeOnly: true })].flatMap(([file, deps]) =>
      deps
        .filter((d) => !d.startsWith(dbRoot + path.sep) && d !== path.join(root, "env.ts"))
        .map((d) => `${path.relative(root, file)} -> ${path.relative(root, d)}`),
    );
    expect(outside.sort()).toEqual(DB_KNOWN);
  });

  it(`every area of server/ is placed, and at most ${UPWARD_LIMIT} imports run from a lower area up to a higher one`, () => {
    const areas = new Set([...importGraph([root]).keys()].map((f) => areaOf(root, f)));
    expect(
      [...areas].filter((a) => !AREAS.includes(a)),
      "areas missing from AREAS",
    ).toEqual([]);
    expect(
      AREAS.filter((a) => !areas.has(a)),
      "listed areas that no longer exist: remove them",
    ).toEqual([]);
    const up = upwardAreaImports(root, AREAS);
    expect(up.length, up.join("\n")).toBeLessThanOrEqual(UPWARD_LIMIT);
  });

  it("the modules outside server/ that server/ may import import nothing themselves", () => {
    for (const m of OUTSIDE_ALLOWED) {
      const text = readFileSync(path.join(root, "..", m), "utf8");
      expect(
        [...text.matchAll(/(?:from\s+|import\s*\(?)\s*["']([^"']+)["']/g)].map((x) => x[1]),
        m,
      ).toEqual([]);
    }
  });

  it("the count sees an upward import (the check can fail)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "areas-"));
    try {
      for (const sub of ["api", "db"]) mkdirSync(path.join(dir, sub));
      writeFileSync(path.join(dir, "api", "x.ts"), 'import "../db/y";\n');
      writeFileSync(path.join(dir, "db", "y.ts"), 'export const load = () => import("../api/x");\n');
      expect(upwardAreaImports(dir, ["api", "db"])).toEqual(["db/y.ts -> api/x.ts"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
