// Supply-chain findings from registry facts (issue 25, items 3 and 4): the rules at their edges, on documents written
// here, so each rule's boundary is visible.
import { describe, expect, it } from "vitest";
import type { RegistryPackage } from "../../server/providers/packages/registry-types";
import { supplyChainFindings } from "../../server/vulnerabilities/supply-chain";
import { packageVerdict } from "../../server/vulnerabilities/verdict";

const now = new Date("2026-11-25T12:00:00Z");
const doc = (over: Partial<RegistryPackage>): RegistryPackage => ({
  name: "pkg",
  latestVersion: "1.0.0",
  description: null,
  license: "MIT",
  repositoryUrl: "https://github.com/example/pkg",
  versions: ["1.0.0"],
  publishedAt: { "1.0.0": "2026-06-01T00:00:00Z" },
  versionFacts: { "1.0.0": {} },
  ...over,
});
const kinds = (pkg: RegistryPackage, version = "1.0.0", eco: "npm" | "pypi" | "composer" = "npm") =>
  supplyChainFindings(eco, pkg, version, now, null).map((f) => f.kind);

describe("repository links", () => {
  it("accepts a repository named as a short package, a monorepo of the scope, and a shared word", () => {
    expect(kinds(doc({ name: "ms", repositoryUrl: "https://github.com/vercel/ms" }))).toEqual([]);
    expect(kinds(doc({ name: "@babel/core", repositoryUrl: "https://github.com/babel/babel" }))).toEqual([]);
    expect(kinds(doc({ name: "react-dom", repositoryUrl: "https://github.com/facebook/react" }))).toEqual([]);
  });

  it("accepts a monorepo's package whose folder is named as the package, with or without its scope", () => {
    const dt = "https://github.com/DefinitelyTyped/DefinitelyTyped";
    expect(kinds(doc({ name: "@types/node", repositoryUrl: dt, repositoryDirectory: "types/node" }))).toEqual([]);
    // An older major version's folder (types/react/v17) still names the package.
    expect(kinds(doc({ name: "@types/react", repositoryUrl: dt, repositoryDirectory: "types/react/v17" }))).toEqual([]);
    const pg = "https://github.com/brianc/node-postgres";
    expect(kinds(doc({ name: "pg-pool", repositoryUrl: pg, repositoryDirectory: "packages/pg-pool" }))).toEqual([]);
    expect(kinds(doc({ name: "@acme/core", repositoryUrl: pg, repositoryDirectory: "packages/acme-core" }))).toEqual(
      [],
    );
    // Without its folder, the same link names another project; a folder of another package does not help.
    expect(kinds(doc({ name: "@types/node", repositoryUrl: dt }))).toEqual(["repository_mismatch"]);
    const other = supplyChainFindings(
      "npm",
      doc({ name: "@types/node", repositoryUrl: dt, repositoryDirectory: "types/lodash" }),
      "1.0.0",
      now,
      null,
    );
    expect(other.map((f) => [f.kind, f.reason, f.evidence])).toEqual([
      [
        "repository_mismatch",
        "The linked repository DefinitelyTyped/DefinitelyTyped (folder types/lodash) does not look like the source of @types/node",
        { repositoryUrl: dt, repositoryDirectory: "types/lodash" },
      ],
    ]);
  });

  it("flags a link to an unrelated project, and a missing link", () => {
    expect(kinds(doc({ name: "left-pad", repositoryUrl: "https://github.com/someone/unrelated" }))).toEqual([
      "repository_mismatch",
    ]);
    expect(kinds(doc({ repositoryUrl: null }))).toEqual(["repository_missing"]);
  });

  it("accepts a repository of the account that maintains or publishes the package, as a renamed project's old name", () => {
    // globalthis links ljharb/System.global, the project's old name; ljharb maintains and publishes globalthis.
    const renamed = { name: "globalthis", repositoryUrl: "git://github.com/ljharb/System.global" };
    expect(kinds(doc({ ...renamed, maintainers: ["ljharb"] }))).toEqual([]);
    expect(kinds(doc({ ...renamed, versionFacts: { "1.0.0": { publisher: "LJHarb" } } }))).toEqual([]);
    // Starjacking stays: a popular unrelated repository whose owner neither maintains nor published the package, and
    // one whose accounts the registry does not name (a repository field is copied in a moment, an account is not).
    const starjack = { name: "left-pad", repositoryUrl: "https://github.com/facebook/react" };
    expect(kinds(doc({ ...starjack, maintainers: ["mallory"] }))).toEqual(["repository_mismatch"]);
    expect(kinds(doc({ ...starjack, versionFacts: { "1.0.0": { publisher: "mallory" } } }))).toEqual([
      "repository_mismatch",
    ]);
    expect(kinds(doc(renamed))).toEqual(["repository_mismatch"]);
    // An account named as the repository's second part (the project, not its owner) is no evidence.
    expect(kinds(doc({ ...starjack, maintainers: ["react"] }))).toEqual(["repository_mismatch"]);
  });
});

describe("releases", () => {
  it("calls a release fresh under 72 hours and not at 72", () => {
    const at = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
    expect(kinds(doc({ publishedAt: { "1.0.0": at(71.9) } }))).toEqual(["fresh_release"]);
    expect(kinds(doc({ publishedAt: { "1.0.0": at(72) } }))).toEqual([]);
  });

  it("calls a package unmaintained when its newest release, not the scanned one, is over two years old", () => {
    const old = { "0.9.0": "2020-01-01T00:00:00Z", "1.0.0": "2024-11-01T00:00:00Z" };
    expect(kinds(doc({ versions: ["0.9.0", "1.0.0"], publishedAt: old }), "0.9.0")).toEqual(["unmaintained"]);
    // The date is the registry's, as it gave it (a mirror may date a re-published document), and says so.
    const [f] = supplyChainFindings("npm", doc({ versions: ["0.9.0", "1.0.0"], publishedAt: old }), "0.9.0", now, null);
    expect([f!.reason, f!.evidence]).toEqual([
      "No release for 2 years: the registry dates the latest release 2024-11-01",
      { latestReleaseAt: "2024-11-01T00:00:00.000Z" },
    ]);
    const recent = { "0.9.0": "2020-01-01T00:00:00Z", "1.0.0": "2025-01-01T00:00:00Z" };
    expect(kinds(doc({ versions: ["0.9.0", "1.0.0"], publishedAt: recent }), "0.9.0")).toEqual([]);
  });

  it("names a new publisher only against earlier versions with known publishers", () => {
    const versions = ["1.0.0", "1.1.0", "2.0.0"];
    const publishedAt = Object.fromEntries(versions.map((v) => [v, "2026-06-01T00:00:00Z"]));
    const pkg = doc({
      versions,
      publishedAt,
      versionFacts: { "1.0.0": { publisher: "alice" }, "1.1.0": { publisher: "bob" }, "2.0.0": { publisher: "bob" } },
    });
    expect(kinds(pkg, "1.1.0")).toEqual(["new_publisher"]);
    expect(kinds(pkg, "2.0.0")).toEqual([]); // bob published 1.1.0
    expect(kinds(pkg, "1.0.0")).toEqual([]); // nothing earlier to compare with
  });
});

describe("install-time code", () => {
  it("names npm install hooks with their first line, and binding.gyp", () => {
    const pkg = doc({
      versionFacts: { "1.0.0": { installScripts: [{ hook: "preinstall", script: "node a.js\nrm -rf /" }] } },
    });
    const [f] = supplyChainFindings("npm", pkg, "1.0.0", now, null);
    expect(f).toMatchObject({
      kind: "install_script",
      evidence: { scripts: [{ hook: "preinstall", firstLine: "node a.js" }] },
    });
    const gyp = supplyChainFindings("npm", doc({ versionFacts: { "1.0.0": { gypfile: true } } }), "1.0.0", now, null);
    expect(gyp[0]!.reason).toContain("binding.gyp");
  });

  it("names a wheel-less PyPI release and a Composer plugin", () => {
    expect(kinds(doc({ versionFacts: { "1.0.0": { sourceOnly: true } } }), "1.0.0", "pypi")).toEqual([
      "install_script",
    ]);
    expect(kinds(doc({ versionFacts: { "1.0.0": { composerPlugin: true } } }), "1.0.0", "composer")).toEqual([
      "install_script",
    ]);
  });
});

describe("the verdict", () => {
  it("is 0 with nothing, 100 only for malware, and grows with each piece of evidence", () => {
    expect(packageVerdict({ malware: false, advisories: [], findings: [] })).toEqual({
      score: 0,
      level: "none",
      reasons: [],
    });
    expect(packageVerdict({ malware: true, advisories: [], findings: [] }).score).toBe(100);
    const one = packageVerdict({
      malware: false,
      advisories: [{ severity: "high", kev: false, epss: null }],
      findings: [],
    });
    const two = packageVerdict({
      malware: false,
      advisories: [
        { severity: "high", kev: false, epss: null },
        { severity: "moderate", kev: false, epss: null },
      ],
      findings: [],
    });
    expect(two.score).toBeGreaterThan(one.score);
    expect(two.score).toBeLessThan(100);
    const exploited = packageVerdict({
      malware: false,
      advisories: [{ severity: "low", kev: true, epss: null }],
      findings: [],
    });
    expect(exploited.score).toBeGreaterThan(one.score);
    expect(exploited.reasons[0]).toMatch(/CISA KEV/);
  });

  it("weighs a typosquat high when its downloads were compared, and low when they could not be read", () => {
    const match = { of: "subarg", technique: "scope" as const, popularRank: 6640, evidence: "near subarg" };
    const verdictOf = (downloadsCompared: boolean | undefined) => {
      const findings = supplyChainFindings("npm", doc({ name: "@x/subarg" }), "1.0.0", now, {
        ...match,
        downloadsCompared,
      });
      return { finding: findings[0]!, verdict: packageVerdict({ malware: false, advisories: [], findings }) };
    };
    const confirmed = verdictOf(true);
    expect(confirmed.finding).toMatchObject({ kind: "typosquat", severity: "high" });
    expect(confirmed.finding.evidence.downloads_compared).toBe(true);
    expect(confirmed.verdict.level).toBe("high");
    for (const unknown of [false, undefined]) {
      const { finding, verdict } = verdictOf(unknown);
      expect(finding).toMatchObject({ kind: "typosquat", severity: "low" });
      expect(finding.reason).toMatch(/^A name near subarg, not confirmed as a typosquat: near subarg$/);
      expect(verdict.level).toBe("low");
    }
  });
});
