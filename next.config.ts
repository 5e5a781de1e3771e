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
};

export default config;
