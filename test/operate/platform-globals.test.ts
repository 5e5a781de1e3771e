// The production server keeps the platform's clock and randomness (scripts/platform-globals.mjs): Next's server,
// when it loads, wraps Date, Math.random and the random functions of node:crypto and Web Crypto; the server puts the
// originals back unless the build enables `cacheComponents`, the only case the wrappers act in. Each case runs in its
// own Node process that loads Next's real environment extensions, so this test's process keeps its globals.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildUsesCacheComponents } from "../../scripts/platform-globals.mjs";

const root = path.resolve(__dirname, "../..");

interface Seen {
  patchedByNext: string[];
  restored: string[];
  originals: string[];
  clock: { now: boolean; constructed: boolean; called: boolean; parsed: string; instance: boolean; ctor: boolean };
  random: { math: boolean; bytes: number; uuid: boolean; values: number };
}

/** Loads platform-globals, then Next's environment extensions, then restores; reports what each global is. */
function run(cacheComponents: boolean): Seen {
  const script = `
    import { platformGlobalsAtLoad as kept, restorePlatformGlobals } from "./scripts/platform-globals.mjs";
    import { createRequire } from "node:module";
    import nodeCrypto from "node:crypto";
    const require = createRequire(import.meta.url);
    require("next/dist/server/node-environment");
    const differs = () => [
      ["Date", Date !== kept.Date],
      ["Math.random", Math.random !== kept.random],
      ["crypto.randomBytes", nodeCrypto.randomBytes !== kept.nodeCrypto.randomBytes],
      ["crypto.randomUUID", nodeCrypto.randomUUID !== kept.nodeCrypto.randomUUID],
      ["webcrypto.getRandomValues", globalThis.crypto.getRandomValues !== Object.getPrototypeOf(globalThis.crypto).getRandomValues],
    ].filter(([, d]) => d).map(([n]) => n);
    const patchedByNext = differs();
    const restored = restorePlatformGlobals(kept, { cacheComponents: ${cacheComponents} });
    const before = Date.now();
    console.log(JSON.stringify({
      patchedByNext,
      restored,
      originals: differs(),
      clock: {
        now: Math.abs(Date.now() - before) < 60000,
        constructed: Math.abs(new Date().getTime() - before) < 60000,
        called: typeof Date() === "string",
        parsed: new Date(Date.UTC(2026, 10, 27)).toISOString(),
        instance: new Date(0) instanceof Date,
        ctor: new Date(0).constructor === Date,
      },
      random: {
        math: Math.random() < 1,
        bytes: nodeCrypto.randomBytes(12).length,
        uuid: /^[0-9a-f-]{36}$/.test(globalThis.crypto.randomUUID()),
        values: globalThis.crypto.getRandomValues(new Uint8Array(8)).length,
      },
    }));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").at(-1)!) as Seen;
}

/** What Next's extensions wrap, each as the run reports it. */
const WRAPPED = ["Date", "Math.random", "crypto.randomBytes", "crypto.randomUUID", "webcrypto.getRandomValues"];

describe("the platform's clock and randomness in the production server", () => {
  it("puts back what Next's environment extensions replaced, and they work as before", () => {
    const seen = run(false);
    // Next's own extensions replace these (if a new Next stops doing so, this test says the module can go).
    expect(seen.patchedByNext).toEqual(expect.arrayContaining(WRAPPED));
    expect(seen.restored).toEqual(expect.arrayContaining(WRAPPED));
    expect(seen.originals).toEqual([]);
    expect(seen.clock).toEqual({
      now: true,
      constructed: true,
      called: true,
      parsed: "2026-11-27T00:00:00.000Z",
      instance: true,
      ctor: true,
    });
    expect(seen.random).toEqual({ math: true, bytes: 12, uuid: true, values: 8 });
  });

  it("leaves Next's wrappers in place when the build enables cacheComponents", () => {
    const seen = run(true);
    expect(seen.restored).toEqual([]);
    expect(seen.originals).toEqual(seen.patchedByNext);
    expect(seen.originals).toEqual(expect.arrayContaining(WRAPPED));
  });
});

describe("whether a build enables cacheComponents", () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });
  const build = (config: unknown) => {
    dir = mkdtempSync(path.join(tmpdir(), "svc-build-"));
    if (config !== undefined) writeFileSync(path.join(dir, "required-server-files.json"), JSON.stringify({ config }));
    return dir;
  };

  it("reads the build's server configuration", () => {
    expect(buildUsesCacheComponents(build({ cacheComponents: false }))).toBe(false);
    rmSync(dir!, { recursive: true });
    expect(buildUsesCacheComponents(build({ cacheComponents: true }))).toBe(true);
    rmSync(dir!, { recursive: true });
    expect(buildUsesCacheComponents(build({ experimental: { cacheComponents: true } }))).toBe(true);
    rmSync(dir!, { recursive: true });
    expect(buildUsesCacheComponents(build({}))).toBe(false);
  });

  it("keeps Next's wrappers when it cannot tell", () => {
    expect(buildUsesCacheComponents(build(undefined))).toBe(true);
  });
});
