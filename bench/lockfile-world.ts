// The generated world of the dependency-scan benchmark (bench/lockfile-runner.ts): a package-lock.json (v3) of N
// package versions and what the local fake upstreams (bench/lockfile-fakes.ts) answer about them. Deterministic
// from its seed, so the fake process and the runner build the same world independently.
// - Names: the most downloaded npm names of the shipped popular list (data/popular/npm.json), as a real lockfile is
//   mostly popular packages; 5 % of them twice, in two versions (a nested node_modules copy); plus a few one-letter
//   look-alikes of popular names (typosquat candidates, the only names whose download count is asked for).
// - Registry documents: full packuments (the service asks for application/json), 2 to ~200 versions each with
//   dependencies, dist, publisher and times, and a README; some scanned versions run install scripts (postinstall,
//   node-gyp), a few are deprecated.
// - OSV: about 10 % of the package versions have 1 to 3 advisories (GHSA ids, most with a CVE alias, SEMVER ranges
//   fixed in a later version); one look-alike has a MAL- record (a malicious release).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

export interface WorldOptions {
  /** Package versions in the lockfile (distinct name@version). */
  packages: number;
  /** Share of package versions with at least one advisory. */
  vulnerableShare: number;
  seed: number;
}

export const DEFAULT_WORLD: WorldOptions = { packages: 1000, vulnerableShare: 0.1, seed: 25 };

export interface WorldPackage {
  name: string;
  /** Every published version, oldest first. */
  versions: string[];
  /** The versions the lockfile installs (one, or two for a nested copy). */
  installed: string[];
  dev: boolean;
  squat: boolean;
}

export interface OsvRecord {
  id: string;
  modified: string;
  [key: string]: unknown;
}

export interface World {
  options: WorldOptions;
  packages: WorldPackage[];
  /** package-lock.json (lockfileVersion 3). */
  lockfile: string;
  /** Serialised packument by package name. */
  packuments: Map<string, string>;
  /** Weekly downloads by package name. */
  downloads: Map<string, number>;
  /** OSV records listed for each "name@version" (ids and modified times, as querybatch answers). */
  osvByVersion: Map<string, { id: string; modified: string }[]>;
  /** Serialised OSV record by id. */
  osvRecords: Map<string, string>;
  expect: {
    packageVersions: number;
    packages: number;
    /** Package versions with at least one (non-malware) advisory. */
    vulnerable: number;
    malware: number;
    advisories: number;
    cves: number;
    /** Installed versions with an install hook (preinstall, install, postinstall) or a binding.gyp. */
    installScripts: number;
    deprecated: number;
    squats: number;
  };
}

/** mulberry32: a small deterministic generator. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;
const GHSA_CHARS = "23456789cfghjmpqrvwx";
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const HEX = "0123456789abcdef";
const WORDS =
  "fast small robust parser utility stream buffer async module plugin config loader cache color string path glob match event emitter promise wrapper helper format schema types logger request client server".split(
    " ",
  );

function popularNpmNames(): string[] {
  const doc = JSON.parse(readFileSync(path.join(root, "data", "popular", "npm.json"), "utf8")) as { names: string[] };
  return doc.names;
}

export function buildWorld(options: WorldOptions = DEFAULT_WORLD): World {
  const rand = rng(options.seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const chars = (alphabet: string, n: number) => {
    let out = "";
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(rand() * alphabet.length)];
    return out;
  };
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");

  const popular = popularNpmNames();
  const depNames = popular.slice(0, 2000);
  const popularSet = new Set(popular);
  const squatCount = Math.max(1, Math.round(options.packages / 200));
  const duplicated = Math.round(options.packages * 0.05);
  const distinctPopular = options.packages - squatCount - duplicated;
  if (distinctPopular <= duplicated || distinctPopular > popular.length - 1000)
    throw new Error(`a lockfile of ${options.packages} package versions cannot be generated from the popular list`);

  // One letter doubled at the end of a popular name (expresss, lodashh): near a popular name, not itself popular.
  const squats: string[] = [];
  for (let rank = 7; squats.length < squatCount; rank += 37) {
    const of = popular[rank]!;
    if (of.startsWith("@") || of.length < 5) continue;
    const name = of + of[of.length - 1];
    if (!popularSet.has(name) && !squats.includes(name)) squats.push(name);
  }

  const names = [...popular.slice(0, distinctPopular), ...squats];
  const packages: WorldPackage[] = names.map((name, i) => {
    const squat = i >= distinctPopular;
    // Versions oldest first: patch, minor or major bumps; most packages have tens, a few hundreds.
    const count = squat ? 1 + Math.floor(rand() * 3) : 2 + Math.floor(rand() ** 3 * 200);
    const versions: string[] = [];
    let [maj, min, pat] = [rand() < 0.3 ? 0 : 1, 0, 0];
    for (let v = 0; v < count; v++) {
      versions.push(`${maj}.${min}.${pat}`);
      const r = rand();
      if (r < 0.6) pat++;
      else if (r < 0.9) [min, pat] = [min + 1, 0];
      else [maj, min, pat] = [maj + 1, 0, 0];
    }
    // Mostly a recent version, sometimes an old one.
    const at = Math.max(0, versions.length - 1 - Math.floor(rand() ** 2 * versions.length));
    return { name, versions, installed: [versions[at]!], dev: rand() < 0.3, squat };
  });
  // Nested second copies, in an older version, of packages that have one.
  for (let i = 0, added = 0; added < duplicated && i < distinctPopular; i += 7) {
    const p = packages[i]!;
    const older = p.versions.filter((v) => v !== p.installed[0]);
    if (older.length === 0) continue;
    p.installed.push(older[Math.floor(rand() * older.length)]!);
    added++;
  }
  // Packages with a single version cannot give a second copy: make up the count with further ones.
  let total = packages.reduce((n, p) => n + p.installed.length, 0);
  for (let i = 1; total < options.packages && i < distinctPopular * 3; i += 3) {
    const p = packages[i % distinctPopular]!;
    const older = p.versions.find((v) => !p.installed.includes(v));
    if (older === undefined) continue;
    p.installed.push(older);
    total++;
  }
  if (total !== options.packages) throw new Error(`generated ${total} package versions instead of ${options.packages}`);

  // Registry documents.
  const now = Date.now();
  const packuments = new Map<string, string>();
  const downloads = new Map<string, number>();
  let installScripts = 0;
  let deprecated = 0;
  for (const [rank, p] of packages.entries()) {
    const publishers = [`${p.name.replace(/[@/]/g, "")}-dev`, "maintainer-two"];
    const first = now - (p.squat ? 40 : 400 + Math.floor(rand() * 3000)) * DAY_MS;
    const last = now - (p.squat ? 3 : Math.floor(rand() * 700)) * DAY_MS;
    const step = (last - first) / Math.max(1, p.versions.length - 1);
    const time: Record<string, string> = {
      created: new Date(first).toISOString(),
      modified: new Date(last).toISOString(),
    };
    const docs: Record<string, unknown> = {};
    const [owner, base] = p.name.startsWith("@") ? p.name.slice(1).split("/") : [p.name, p.name];
    const repo = { type: "git", url: `git+https://github.com/${owner}/${base}.git` };
    for (const [i, v] of p.versions.entries()) {
      time[v] = new Date(first + i * step).toISOString();
      const deps = Object.fromEntries(
        Array.from({ length: Math.floor(rand() * 6) }, () => [pick(depNames), `^${1 + Math.floor(rand() * 5)}.0.0`]),
      );
      const doc: Record<string, unknown> = {
        name: p.name,
        version: v,
        description: `A ${words(4)}`,
        license: "MIT",
        repository: repo,
        main: "index.js",
        scripts: { test: "node test.js" },
        dependencies: deps,
        engines: { node: ">=14" },
        dist: {
          tarball: `https://registry.example.test/${p.name}/-/${p.name.split("/").pop()}-${v}.tgz`,
          shasum: chars(HEX, 40),
          integrity: `sha512-${chars(B64, 86)}==`,
          fileCount: 5 + Math.floor(rand() * 60),
          unpackedSize: 2_000 + Math.floor(rand() * 400_000),
        },
        _npmUser: { name: publishers[0], email: `${publishers[0]}@example.com` },
        maintainers: publishers.map((n) => ({ name: n, email: `${n}@example.com` })),
        _hasShrinkwrap: false,
      };
      if (p.installed.includes(v)) {
        const r = rand();
        if (r < 0.03) {
          doc.scripts = { ...(doc.scripts as object), postinstall: "node ./scripts/postinstall.js" };
          installScripts++;
        } else if (r < 0.04) {
          doc.scripts = { ...(doc.scripts as object), install: "node-gyp rebuild" };
          doc.gypfile = true;
          installScripts++;
        } else if (r < 0.06) {
          doc.deprecated = `${p.name}@${v} is no longer maintained; upgrade to the latest version`;
          deprecated++;
        }
      }
      docs[v] = doc;
    }
    const latest = p.versions[p.versions.length - 1]!;
    packuments.set(
      p.name,
      JSON.stringify({
        _id: p.name,
        _rev: `${p.versions.length}-${chars(HEX, 32)}`,
        name: p.name,
        description: `A ${words(5)}`,
        "dist-tags": { latest },
        versions: docs,
        time,
        maintainers: publishers.map((n) => ({ name: n, email: `${n}@example.com` })),
        author: { name: publishers[0] },
        repository: repo,
        license: "MIT",
        keywords: Array.from({ length: 4 }, () => pick(WORDS)),
        readme: `# ${p.name}\n\n${Array.from({ length: 20 + Math.floor(rand() * 80) }, () => words(8)).join(".\n")}\n`,
        readmeFilename: "README.md",
      }),
    );
    downloads.set(p.name, p.squat ? 40 + Math.floor(rand() * 400) : Math.round(50_000_000 / (1 + rank / 50)));
  }

  // OSV: advisories for about vulnerableShare of the package versions, one malicious release.
  const osvByVersion = new Map<string, { id: string; modified: string }[]>();
  const osvRecords = new Map<string, string>();
  const cves = new Set<string>();
  let vulnerable = 0;
  let advisories = 0;
  const target = Math.round(options.packages * options.vulnerableShare);
  const list = (key: string) => osvByVersion.get(key) ?? osvByVersion.set(key, []).get(key)!;
  const candidates = packages.filter((p) => !p.squat);
  for (let i = 0; vulnerable < target && i < candidates.length * 4; i++) {
    const p = candidates[Math.floor(rand() * candidates.length)]!;
    if (p.installed.some((v) => osvByVersion.has(`${p.name}@${v}`))) continue;
    // Fixed in the version after the newest installed one: every installed version of the package is affected.
    const newest = p.installed.map((v) => p.versions.indexOf(v)).reduce((a, b) => Math.max(a, b));
    const fixed = p.versions[newest + 1] ?? bump(p.versions[newest]!);
    const n = 1 + (rand() < 0.3 ? 1 : 0) + (rand() < 0.1 ? 1 : 0);
    for (let k = 0; k < n; k++) {
      const id = `GHSA-${chars(GHSA_CHARS, 4)}-${chars(GHSA_CHARS, 4)}-${chars(GHSA_CHARS, 4)}`;
      const cve = rand() < 0.8 ? `CVE-${2019 + Math.floor(rand() * 7)}-${10000 + Math.floor(rand() * 50000)}` : null;
      if (cve) cves.add(cve);
      const severity = pick(["LOW", "MODERATE", "MODERATE", "HIGH", "HIGH", "CRITICAL"]);
      const modified = new Date(now - Math.floor(rand() * 300) * DAY_MS).toISOString();
      const record = {
        id,
        summary: `${pick(["Prototype pollution", "Regular expression denial of service", "Path traversal", "Command injection", "Cross-site scripting"])} in ${p.name}`,
        details: Array.from({ length: 6 }, () => words(12)).join(". "),
        aliases: cve ? [cve] : [],
        modified,
        published: new Date(now - (300 + Math.floor(rand() * 1500)) * DAY_MS).toISOString(),
        database_specific: { severity, github_reviewed: true, cwe_ids: ["CWE-1321"], nvd_published_at: null },
        severity: [{ type: "CVSS_V3", score: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H" }],
        affected: [
          {
            package: { ecosystem: "npm", name: p.name, purl: `pkg:npm/${p.name}` },
            ranges: [{ type: "SEMVER", events: [{ introduced: "0" }, { fixed }] }],
            database_specific: {
              source: `https://github.com/github/advisory-database/blob/main/advisories/${id}.json`,
            },
          },
        ],
        references: [
          { type: "ADVISORY", url: `https://nvd.nist.gov/vuln/detail/${cve ?? id}` },
          { type: "PACKAGE", url: `https://github.com/${p.name}` },
          { type: "WEB", url: `https://github.com/advisories/${id}` },
        ],
        schema_version: "1.6.0",
      };
      osvRecords.set(id, JSON.stringify(record));
      for (const v of p.installed) list(`${p.name}@${v}`).push({ id, modified });
      advisories++;
    }
    vulnerable += p.installed.length;
  }
  const mal = packages.find((p) => p.squat)!;
  const malId = "MAL-2025-4242";
  const malModified = new Date(now - 2 * DAY_MS).toISOString();
  osvRecords.set(
    malId,
    JSON.stringify({
      id: malId,
      summary: `Malicious code in ${mal.name} (npm)`,
      details: "The package runs a postinstall script that sends environment variables to a remote host.",
      aliases: [],
      modified: malModified,
      published: malModified,
      database_specific: { "malicious-packages-origins": [{ source: "ossf-package-analysis" }] },
      affected: [
        {
          package: { ecosystem: "npm", name: mal.name },
          ranges: [{ type: "SEMVER", events: [{ introduced: "0" }] }],
          versions: mal.versions,
        },
      ],
      references: [{ type: "REPORT", url: "https://github.com/ossf/malicious-packages" }],
      schema_version: "1.6.0",
    }),
  );
  for (const v of mal.installed) list(`${mal.name}@${v}`).push({ id: malId, modified: malModified });

  return {
    options,
    packages,
    lockfile: lockfileText(packages, rand),
    packuments,
    downloads,
    osvByVersion,
    osvRecords,
    expect: {
      packageVersions: packages.reduce((n, p) => n + p.installed.length, 0),
      packages: packages.length,
      vulnerable,
      malware: mal.installed.length,
      advisories,
      cves: cves.size,
      installScripts,
      deprecated,
      squats: squats.length,
    },
  };
}

function bump(v: string): string {
  const [maj, min, pat] = v.split(".").map(Number);
  return `${maj}.${min}.${pat! + 1}`;
}

/** A package-lock.json v3 as npm 9+ writes it: root entry, then every node_modules path, nested copies below. */
function lockfileText(packages: WorldPackage[], rand: () => number): string {
  const chars = (n: number) => Array.from({ length: n }, () => B64[Math.floor(rand() * B64.length)]).join("");
  const top = packages.filter((p) => !p.dev);
  const entries: Record<string, unknown> = {
    "": {
      name: "bench-app",
      version: "1.0.0",
      license: "UNLICENSED",
      dependencies: Object.fromEntries(top.slice(0, 40).map((p) => [p.name, `^${p.installed[0]}`])),
      devDependencies: Object.fromEntries(
        packages
          .filter((p) => p.dev)
          .slice(0, 20)
          .map((p) => [p.name, `^${p.installed[0]}`]),
      ),
    },
  };
  const entry = (p: WorldPackage, v: string) => ({
    version: v,
    resolved: `https://registry.example.test/${p.name}/-/${p.name.split("/").pop()}-${v}.tgz`,
    integrity: `sha512-${chars(86)}==`,
    ...(p.dev ? { dev: true } : {}),
    license: "MIT",
    ...(rand() < 0.4 ? { dependencies: { [packages[Math.floor(rand() * packages.length)]!.name]: "^1.0.0" } } : {}),
    ...(rand() < 0.2 ? { engines: { node: ">=14" } } : {}),
  });
  const nestedUnder = (i: number) => packages[(i * 13 + 5) % packages.length]!.name;
  for (const [i, p] of [...packages.entries()].sort((a, b) => a[1].name.localeCompare(b[1].name))) {
    entries[`node_modules/${p.name}`] = entry(p, p.installed[0]!);
    for (const [k, v] of p.installed.slice(1).entries())
      entries[`node_modules/${nestedUnder(i + k)}/node_modules/${p.name}`] = entry(p, v);
  }
  return (
    JSON.stringify(
      { name: "bench-app", version: "1.0.0", lockfileVersion: 3, requires: true, packages: entries },
      null,
      2,
    ) + "\n"
  );
}
