// Warm-up after start: once the server is ready, it requests /docs and every dashboard page once, in turn, so
// the first person to open one does not wait for its route code to load and for the OpenAPI document to be built
// (issue 22: 6.2 s for the overview, 16.7 s for the console on a first visit). The /docs page builds the
// document in slices that yield to the event loop (loadOpenApiDocument), and every later user of it (the REST
// route, the console) finds it built. Requests are made one at a time and their failures ignored: a warm-up
// never delays or breaks serving. Off with SERVICE_WARM_PAGES=0 (or false, no, off).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/**
 * SERVICE_WARM_PAGES, a flag of the settings registry (server/env/service.ts): on unless `0`, `false`, `no` or `off`,
 * as every flag reads. The registry refuses any other word when the server starts.
 */
export function warmPagesWanted(env = process.env) {
  return !["0", "false", "no", "off"].includes(
    String(env.SERVICE_WARM_PAGES ?? "")
      .trim()
      .toLowerCase(),
  );
}

/**
 * The pages to warm: /docs with its operation list, and every dashboard page of the build (its app-paths manifest,
 * so a new page is warmed without being listed here). Pages with a dynamic segment need an id and are left out.
 */
export function pagesToWarm(distDir) {
  let manifest = {};
  try {
    manifest = JSON.parse(readFileSync(path.join(distDir, "server", "app-paths-manifest.json"), "utf8"));
  } catch {
    // No build to read: /docs and the overview still warm.
  }
  const dashboard = Object.keys(manifest)
    .filter((entry) => /^\/dashboard(\/[^/[\]]+)*\/page$/.test(entry))
    .map((entry) => entry.slice(0, -"/page".length))
    .sort();
  return ["/docs", "/docs/operations", ...new Set(["/dashboard", ...dashboard])];
}

/**
 * Loads the compiled code of `paths` (their page modules and every chunk they import) into this process, without
 * rendering anything: the same module instances Next renders with later (as scripts/rest-direct.mjs does for /v1).
 * Evaluating a page's code holds the event loop for a few hundred milliseconds, so the production server does it
 * before its public port opens; the warm-up after start then only renders. Returns the paths loaded.
 */
export function preloadPageModules(distDir, paths) {
  if (!warmPagesWanted()) return [];
  const loaded = [];
  for (const page of paths) {
    try {
      require(path.join(distDir, "server", "app", page, "page.js"));
      loaded.push(page);
    } catch {
      // Not in this build, or it fails to load: the warm-up or the first visit loads it through Next instead.
    }
  }
  return loaded;
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Warms `paths` of the server at `origin` (e.g. http://127.0.0.1:3000) once /readyz answers 200 (at most
 * `readyWithinMs`). Resolves with the paths warmed; never rejects.
 */
export async function warmPages(origin, paths, { readyWithinMs = 300_000 } = {}) {
  if (!warmPagesWanted()) return [];
  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    const ready = await fetch(`${origin}/readyz`).then(
      (r) => (r.body?.cancel(), r.ok),
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) return [];
    await pause(500);
  }
  const warmed = [];
  for (const path of paths) {
    try {
      const res = await fetch(`${origin}${path}`, { redirect: "manual", headers: { "x-service-warm-up": "1" } });
      await res.arrayBuffer();
      warmed.push(path);
    } catch {
      // A page that fails to warm is loaded on its first visit instead.
    }
  }
  return warmed;
}
