import type { NextConfig } from "next";

const config: NextConfig = {
  // A second build folder lets two checkouts' builds (or two parallel e2e runs) coexist; the default is .next.
  distDir: process.env.SERVICE_NEXT_DIST_DIR || ".next",
  // The spec writes some routes with a trailing slash (/vulnerabilities/npm/{package}/): never redirect them.
  skipTrailingSlashRedirect: true,
  allowedDevOrigins: ["127.0.0.1"],
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "mmdb-lib", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  typedRoutes: false,
  experimental: {
    // Next would load every page's code in the background after start, holding the event loop for a second or more
    // while the probes wait; scripts/warm-pages.mjs loads the pages once the service is ready instead (issue 22,
    // items 7 and 11).
    preloadEntriesOnStart: false,
  },
};

export default config;
