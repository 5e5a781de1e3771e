// The warm-up after start (scripts/warm-pages.mjs): waits for /readyz, then requests each page once, in turn,
// marked as a warm-up; a page that fails does not stop the others, and SERVICE_WARM_PAGES=0 turns it off. Before
// the port opens, the pages' code is loaded once without rendering.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pagesToWarm, preloadPageModules, warmPages } from "../../scripts/warm-pages.mjs";

let server: Server | null = null;
afterEach(async () => {
  delete process.env.SERVICE_WARM_PAGES;
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)));
  server = null;
});

async function site(readyAfter: number) {
  const seen: { path: string; warmUp: boolean; at: number }[] = [];
  let probes = 0;
  server = createServer((req, res) => {
    if (req.url === "/readyz") {
      probes++;
      return res.writeHead(probes > readyAfter ? 200 : 503).end();
    }
    seen.push({ path: req.url!, warmUp: req.headers["x-service-warm-up"] === "1", at: probes });
    if (req.url === "/broken") return req.destroy();
    res.writeHead(200, { "content-type": "text/html" }).end("<p>page</p>");
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

describe("warming the pages after start", () => {
  it("waits until the server is ready, then requests every page once, in turn, past one that fails", async () => {
    const { origin, seen } = await site(2);
    const warmed = await warmPages(origin, ["/docs", "/broken", "/dashboard/console"]);
    expect(warmed).toEqual(["/docs", "/dashboard/console"]);
    expect(seen.map((s) => s.path)).toEqual(["/docs", "/broken", "/dashboard/console"]);
    expect(seen.every((s) => s.warmUp && s.at === 3)).toBe(true);
  });

  it("warms /docs and every dashboard page of the build, none with a dynamic segment", () => {
    const distDir = mkdtempSync(path.join(tmpdir(), "warm-pages-"));
    mkdirSync(path.join(distDir, "server"));
    const entries = ["/page", "/dashboard/page", "/dashboard/lists/page", "/dashboard/keys/page"];
    entries.push(
      "/dashboard/webhooks/[id]/page",
      "/dashboard/[...missing]/page",
      "/docs/page",
      "/v1/[[...path]]/route",
    );
    writeFileSync(
      path.join(distDir, "server", "app-paths-manifest.json"),
      JSON.stringify(Object.fromEntries(entries.map((e) => [e, "x.js"]))),
    );
    try {
      expect(pagesToWarm(distDir)).toEqual([
        "/docs",
        "/docs/operations",
        "/dashboard",
        "/dashboard/keys",
        "/dashboard/lists",
      ]);
    } finally {
      rmSync(distDir, { recursive: true, force: true });
    }
  });

  it("does nothing with SERVICE_WARM_PAGES=0", async () => {
    const { origin, seen } = await site(0);
    process.env.SERVICE_WARM_PAGES = "0";
    expect(await warmPages(origin, ["/docs"])).toEqual([]);
    expect(seen).toEqual([]);
  });

  it("is off for every word the settings table gives a flag for off, and the server's start refuses another", async () => {
    // SERVICE_WARM_PAGES=off (or false, no) warmed every page all the same: only "0" was read, and as a setting read
    // outside the server, start-up never checked it, so SERVICE_WARM_PAGES=maybe started too.
    const { origin, seen } = await site(0);
    const dist = mkdtempSync(path.join(tmpdir(), "svc-preload-off-"));
    try {
      mkdirSync(path.join(dist, "server", "app", "docs"), { recursive: true });
      writeFileSync(path.join(dist, "server", "app", "docs", "page.js"), "");
      for (const off of ["0", "false", "no", "off", " OFF "]) {
        process.env.SERVICE_WARM_PAGES = off;
        expect({ off, warmed: await warmPages(origin, ["/docs"]) }).toEqual({ off, warmed: [] });
        expect({ off, loaded: preloadPageModules(dist, ["/docs"]) }).toEqual({ off, loaded: [] });
      }
      expect(seen).toEqual([]);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
    const { validateSettings } = await import("../../server/env");
    process.env.SERVICE_WARM_PAGES = "maybe";
    expect(validateSettings()).toEqual([expect.stringContaining('SERVICE_WARM_PAGES="maybe" is invalid')]);
  });
});

describe("loading the pages' code before the port opens", () => {
  it("evaluates each page module of the build once, skips what the build lacks, and is off with SERVICE_WARM_PAGES=0", () => {
    const dist = mkdtempSync(path.join(tmpdir(), "svc-preload-"));
    try {
      for (const page of ["dashboard", "docs"]) {
        mkdirSync(path.join(dist, "server", "app", page), { recursive: true });
        writeFileSync(
          path.join(dist, "server", "app", page, "page.js"),
          `globalThis.__preloaded = [...(globalThis.__preloaded ?? []), ${JSON.stringify(page)}];`,
        );
      }
      const g = globalThis as { __preloaded?: string[] };
      delete g.__preloaded;
      process.env.SERVICE_WARM_PAGES = "0";
      expect(preloadPageModules(dist, ["/dashboard"])).toEqual([]);
      expect(g.__preloaded).toBeUndefined();
      delete process.env.SERVICE_WARM_PAGES;
      expect(preloadPageModules(dist, ["/dashboard", "/dashboard/missing", "/docs"])).toEqual(["/dashboard", "/docs"]);
      expect(g.__preloaded).toEqual(["dashboard", "docs"]);
      // Loaded once: the module cache holds them, as it will for Next's own render.
      preloadPageModules(dist, ["/dashboard"]);
      expect(g.__preloaded).toEqual(["dashboard", "docs"]);
      delete g.__preloaded;
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
