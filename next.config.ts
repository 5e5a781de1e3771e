import type { NextConfig } from "next";
import path from "node:path";

const config: NextConfig = {
  // A second build folder lets two checkouts' builds (or two parallel e2e runs) coexist; the default is .next.
  distDir: process.env.SERVICE_NEXT_DIST_DIR || ".next",
  // The spec writes some routes with a trailing slash (/vulnerabilities/npm/{package}/): never redirect them.
  skipTrailingSlashRedirect: true,
  allowedDevOrigins: ["127.0.0.1"],
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "mmdb-lib", "pg", "@prisma/adapter-pg"],
  // The project's own folder is its root: without it Next looks for a lockfile in the folders above, and one there
  // (a package-lock.json in /tmp above a clone in /tmp/x) printed a two-line warning that is not JSON at every start.
  turbopack: { root: path.resolve(__dirname) },
  poweredByHeader: false,
  typedRoutes: false,
  // `npm run typecheck` (tsc over the whole tree, CI's second step) is the type check; the build does not repeat it
  // (it took 52 s of each build on a 2-core machine, the first `npm start` included).
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // Next would load every page's code in the background after start, holding the event loop for a second or more
    // while the probes wait; scripts/warm-pages.mjs loads the pages once the service is ready instead (issue 22,
    // items 7 and 11).
    preloadEntriesOnStart: false,
    // Next 16.4 writes Turbopack's build cache into the build folder by default (26 s on a 2-core machine); a CI run
    // builds once from a fresh clone and never reads it, so CI skips writing it. Elsewhere rebuilds use it.
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
};

export default config;
