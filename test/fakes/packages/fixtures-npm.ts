// npm registry, download-count and bulk-advisory fixtures, shaped like the real answers (trimmed).
import type { NpmBulkAdvisory } from "../../../server/providers/packages/npm-registry";

type VersionDoc = {
  name: string;
  version: string;
  description?: string;
  license?: unknown;
  repository?: unknown;
  scripts?: Record<string, string>;
  gypfile?: boolean;
  deprecated?: string;
  _npmUser?: { name: string; email: string };
};

const HOUR_MS = 3_600_000;

function packument(
  name: string,
  versions: string[],
  extra: {
    description?: string;
    license?: unknown;
    repository?: unknown;
    latest?: string;
    /** Per-version fields (scripts, gypfile, deprecated, _npmUser) and publication times. */
    perVersion?: Record<string, Partial<VersionDoc> & { time?: string }>;
    /** Publication time of the first version (later ones follow 30 days apart). */
    firstPublished?: Date;
  },
) {
  const latest = extra.latest ?? versions[versions.length - 1];
  const docs: Record<string, VersionDoc> = {};
  const time: Record<string, string> = { created: "2019-01-01T00:00:00.000Z", modified: "2024-06-01T00:00:00.000Z" };
  const first = extra.firstPublished ?? new Date(Date.UTC(2019, 0, 1));
  versions.forEach((v, i) => {
    const { time: at, ...own } = extra.perVersion?.[v] ?? {};
    docs[v] = {
      name,
      version: v,
      description: extra.description,
      license: extra.license,
      repository: extra.repository,
      ...own,
    };
    time[v] = at ?? new Date(first.getTime() + i * 30 * 24 * HOUR_MS).toISOString();
  });
  return {
    _id: name,
    name,
    description: extra.description,
    "dist-tags": { latest, next: versions[versions.length - 1] },
    versions: docs,
    time,
    license: extra.license,
    repository: extra.repository,
    maintainers: [{ name: "someone", email: "someone@example.com" }],
  };
}

export const MANY_VERSIONS = Array.from({ length: 60 }, (_, i) => `1.${i}.0`);

export const NPM_PACKUMENTS: Record<string, unknown> = {
  "@acme/widget": packument("@acme/widget", ["1.0.0", "1.0.1", "1.1.0-rc.1", "1.1.0", "2.0.0"], {
    description: "Widgets for the web",
    license: "MIT",
    repository: { type: "git", url: "git+https://github.com/acme/widget.git" },
    latest: "2.0.0",
  }),
  jquery: packument("jquery", ["3.4.0", "3.4.1", "3.5.0", "3.7.1"], {
    description: "JavaScript library for DOM operations",
    license: "MIT",
    repository: { type: "git", url: "https://github.com/jquery/jquery.git" },
  }),
  "many-vulns": packument("many-vulns", MANY_VERSIONS, {
    description: "A package with fifty advisories",
    license: { type: "ISC" },
    repository: "github:example/many-vulns",
  }),
  "no-downloads-yet": packument("no-downloads-yet", ["0.1.0"], {}),
  // One malicious release (1.4.2) between clean ones, as in the colors/faker and event-stream incidents.
  "tinted-logs": packument("tinted-logs", ["1.4.0", "1.4.1", "1.4.2", "1.4.3"], {
    description: "Coloured log lines",
    license: "MIT",
    repository: "github:example/tinted-logs",
    latest: "1.4.3",
  }),
  // The dependency scan's supply-chain fixtures. A release published five hours before the test run, with an
  // install script, by an account that published none of the earlier versions; an older deprecated version.
  "fresh-thing": packument("fresh-thing", ["1.0.0", "1.1.0", "2.0.0"], {
    description: "Freshly published helpers",
    license: "MIT",
    repository: "github:example/fresh-thing",
    firstPublished: new Date(Date.UTC(2025, 0, 1)),
    perVersion: {
      "1.0.0": { _npmUser: { name: "alice", email: "alice@example.com" }, deprecated: "1.x is no longer supported" },
      "1.1.0": { _npmUser: { name: "alice", email: "alice@example.com" } },
      "2.0.0": {
        _npmUser: { name: "mallory", email: "mallory@example.com" },
        scripts: { postinstall: "node collect.js\necho done", test: "vitest" },
        time: new Date(Date.now() - 5 * HOUR_MS).toISOString(),
      },
    },
  }),
  // A native addon: binding.gyp (gypfile) makes npm run node-gyp; the last release is over two years old, and the
  // repository link names another project.
  "old-native": packument("old-native", ["0.9.0", "1.0.0"], {
    description: "Native bindings",
    license: "MIT",
    repository: "github:someone-else/unrelated-project",
    perVersion: { "1.0.0": { gypfile: true } },
  }),
  // One keystroke from a popular name (the shipped list has express), downloaded a dozen times a week.
  expresss: packument("expresss", ["4.18.2"], {
    description: "Fast web framework",
    license: "MIT",
    repository: "github:example/expresss",
    firstPublished: new Date(Date.UTC(2025, 10, 1)),
  }),
  // Unpublished: the registry keeps a stub without versions.
  "gone-pkg": { _id: "gone-pkg", name: "gone-pkg", time: { unpublished: { time: "2020-01-01T00:00:00.000Z" } } },
};

export const NPM_DOWNLOADS: Record<string, number> = {
  "@acme/widget": 12345,
  jquery: 9876543,
  "many-vulns": 42,
  expresss: 12,
};

export const NPM_BULK: Record<string, NpmBulkAdvisory[]> = {
  "@acme/widget": [
    {
      id: 1099001,
      url: "https://github.com/advisories/GHSA-35jh-r3h4-6jhm",
      title: "Prototype pollution in @acme/widget",
      severity: "high",
      vulnerable_versions: "<1.0.1",
      cwe: ["CWE-1321"],
      cvss: { score: 7.5, vectorString: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N" },
    },
    {
      id: 1099002,
      url: "https://github.com/advisories/GHSA-c2qf-rxjj-qqgw",
      title: "Regular expression denial of service in @acme/widget",
      severity: "moderate",
      vulnerable_versions: "<1.1.0",
      cwe: ["CWE-1333"],
      cvss: { score: 5.3, vectorString: null },
    },
  ],
};
