// package-lock.json v3 files of one project for the projects' tests: each a root and the given package versions.
export function packageLock(packages: Record<string, string>): string {
  const entries = Object.entries(packages).map(([name, version]) => [
    `node_modules/${name}`,
    { version, resolved: `https://registry.example.test/${name}/-/${name.split("/").pop()}-${version}.tgz` },
  ]);
  return `${JSON.stringify(
    {
      name: "acme-web",
      version: "1.0.0",
      lockfileVersion: 3,
      requires: true,
      packages: { "": { name: "acme-web", version: "1.0.0" }, ...Object.fromEntries(entries) },
    },
    null,
    2,
  )}\n`;
}

/** The first scan: jquery with its advisories, @acme/widget 1.0.0 with a high one, a clean tinted-logs. */
export const FIRST = packageLock({ jquery: "3.4.1", "@acme/widget": "1.0.0", "tinted-logs": "1.4.3" });
/** The second: @acme/widget moved to its fixing version, tinted-logs to its malicious release. */
export const SECOND = packageLock({ jquery: "3.4.1", "@acme/widget": "1.0.1", "tinted-logs": "1.4.2" });
