// This repository's own package-lock.json, scanned against the real npm registry, gave 50 repository_mismatch
// findings (DefinitelyTyped's @types/* and other monorepos' packages, whose repository names the monorepo and the
// package's folder) and one high verdict: @minimistjs/subarg, the minimist maintainers' fork of subarg, as a
// "typosquat" only because its weekly downloads could not be read (issue 42, item 12). Here an excerpt of that
// lockfile is scanned against registry documents recorded from the registry (trimmed to the fields the scan reads:
// test/vulnerabilities/registry-recordings/) served on 127.0.0.1, with the download counts unreachable as they were:
// no high verdict, no repository finding for a monorepo package whose folder is named as it, no typosquat for the
// fork, and install-script findings exactly for the packages npm itself marks (`hasInstallScript`). Then the fork
// rule at its edges, on documents written here. Both stores: DATABASE_URL selects PostgreSQL.
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RegistryPackage } from "../../server/providers/packages/registry-types";
import { ownFork } from "../../server/vulnerabilities/typosquat-check";
import type { TyposquatMatch } from "../../server/vulnerabilities/typosquat";
import { createTestApp } from "../harness";
import { useFakePackageSources } from "./fake-sources";

const sources = useFakePackageSources();
const app = await createTestApp();

const RECORDED = path.join(__dirname, "registry-recordings");
const recorded: Record<string, unknown> = Object.fromEntries(
  readdirSync(RECORDED).map((file) => {
    const doc = JSON.parse(readFileSync(path.join(RECORDED, file), "utf8")) as { name: string };
    return [doc.name, doc];
  }),
);
/** Documents written here for the fork rule's edges, beside the recorded ones. */
const written: Record<string, unknown> = {};

let registry: Server;
beforeAll(async () => {
  registry = createServer((req, res) => {
    const name = decodeURIComponent((req.url ?? "/").slice(1).split("?")[0]!);
    const doc = written[name] ?? recorded[name];
    res.writeHead(doc ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(doc ?? { error: "Not found" }));
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  process.env.SERVICE_NPM_REGISTRY_URL = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => registry.close(() => resolve())));

/** The packages of this repository's lockfile that the recordings hold, as its package-lock.json lists them. */
const EXCERPT: Record<string, { version: string; dev?: true; hasInstallScript?: true }> = {
  "@minimistjs/subarg": { version: "1.0.0", dev: true },
  "@scarf/scarf": { version: "1.4.0", hasInstallScript: true },
  "@types/d3-array": { version: "3.0.3" },
  "@types/node": { version: "20.19.43" },
  "@types/pg": { version: "8.23.1" },
  esbuild: { version: "0.28.2", hasInstallScript: true },
  espree: { version: "11.2.0", dev: true },
  globalthis: { version: "1.0.4", dev: true },
  minimist: { version: "1.2.8", dev: true },
  "object-inspect": { version: "1.14.0" },
  pg: { version: "8.23.1" },
  "pg-pool": { version: "3.14.0" },
  scheduler: { version: "0.28.0" },
  subarg: { version: "1.0.0", dev: true },
};
const MONOREPO_PACKAGES = ["@types/d3-array", "@types/node", "@types/pg", "espree", "pg", "pg-pool", "scheduler"];

const lockfile = JSON.stringify(
  {
    name: "service",
    version: "0.1.0",
    lockfileVersion: 3,
    requires: true,
    packages: {
      "": { name: "service", version: "0.1.0", hasInstallScript: true },
      ...Object.fromEntries(Object.entries(EXCERPT).map(([name, entry]) => [`node_modules/${name}`, entry])),
    },
  },
  null,
  2,
);

type Finding = { kind: string; severity: string; evidence: Record<string, unknown> };
type Scanned = { name: string; findings: Finding[]; verdict: { level: string }; registry: { status: string } };

describe("this repository's lockfile against recorded registry documents", () => {
  it("scans with no high verdict, no monorepo repository finding, no typosquat of the fork, npm's install scripts", async () => {
    expect(Object.keys(recorded).sort()).toEqual(Object.keys(EXCERPT).sort());
    sources.current.down.add("downloads");
    // Every source here answers: a generous timeout keeps a loaded machine's first scan from reading "timed out".
    process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS = "30000";
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/vulnerabilities/scan", {
      key: ws.apiKey,
      body: lockfile,
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const packages = res.body.packages as Scanned[];
    expect(packages.map((p) => p.name).sort()).toEqual(Object.keys(EXCERPT).sort());
    expect(packages.filter((p) => p.registry.status !== "ok")).toEqual([]);
    const byName = new Map(packages.map((p) => [p.name, p]));
    const kindsOf = (name: string) => byName.get(name)!.findings.map((f) => f.kind);

    expect(packages.filter((p) => ["high", "critical"].includes(p.verdict.level)).map((p) => p.name)).toEqual([]);
    for (const name of MONOREPO_PACKAGES)
      expect(
        kindsOf(name).filter((k) => k.startsWith("repository_")),
        name,
      ).toEqual([]);
    // A repository written as ssh://github.com/... (no git@) is a link, not a missing one.
    expect(kindsOf("object-inspect")).not.toContain("repository_missing");
    // The fork publishes subarg's own repository under the minimist maintainers' scope: no squat.
    expect(kindsOf("@minimistjs/subarg")).not.toContain("typosquat");
    expect(res.body.summary.byFinding.typosquat ?? 0).toBe(0);
    // npm's own list: the lockfile's hasInstallScript packages, exactly.
    const npmList = Object.entries(EXCERPT).flatMap(([name, e]) => (e.hasInstallScript ? [name] : []));
    expect(packages.filter((p) => kindsOf(p.name).includes("install_script")).map((p) => p.name)).toEqual(
      expect.arrayContaining(npmList),
    );
    expect(res.body.summary.byFinding.install_script).toBe(npmList.length);
    // What remains is true and low: globalthis's repository is named System.global (its old name), and the recorded
    // document names no maintainer or publisher to show that the repository's owner publishes it.
    expect(byName.get("globalthis")!.findings.find((f) => f.kind === "repository_mismatch")?.severity).toBe("low");
    expect(await app.used(ws.workspaceId)).toBe(Object.keys(EXCERPT).length);
  });
});

const pkg = (name: string, over: Partial<RegistryPackage> = {}): RegistryPackage => ({
  name,
  latestVersion: "1.0.0",
  description: null,
  license: "MIT",
  repositoryUrl: `https://github.com/example/${name.replace(/^@[^/]+\//, "")}`,
  versions: ["1.0.0"],
  publishedAt: {},
  versionFacts: { "1.0.0": {} },
  ...over,
});
const packument = (name: string, repository: string, maintainers?: string[]) => ({
  name,
  "dist-tags": { latest: "1.0.0" },
  ...(maintainers ? { maintainers: maintainers.map((m) => ({ name: m })) } : {}),
  versions: { "1.0.0": { name, version: "1.0.0", repository: { type: "git", url: repository } } },
});
const match = (of: string, technique: TyposquatMatch["technique"]): TyposquatMatch => ({
  of,
  technique,
  popularRank: 100,
  evidence: `near ${of}`,
});

describe("a popular package's own fork", () => {
  it("is cleared by a shared maintainer or publisher, whatever the technique", async () => {
    written["orig-maintained"] = packument("orig-maintained", "git+https://github.com/alice/orig.git", ["Alice"]);
    const byMaintainer = pkg("orig-maintaned", { maintainers: ["alice"] });
    expect(await ownFork("npm", byMaintainer, match("orig-maintained", "edit"))).toBe("same_maintainers");
    const byPublisher = pkg("orig-maintaned", { versionFacts: { "1.0.0": { publisher: "alice" } } });
    expect(await ownFork("npm", byPublisher, match("orig-maintained", "edit"))).toBe("same_maintainers");
  });

  it("is not cleared when both name maintainers and share none, even with a copied repository", async () => {
    written["orig-owned"] = packument("orig-owned", "https://github.com/alice/orig", ["alice"]);
    const copy = pkg("@mallory/orig-owned", {
      maintainers: ["mallory"],
      repositoryUrl: "https://github.com/alice/orig",
    });
    expect(await ownFork("npm", copy, match("orig-owned", "scope"))).toBeNull();
  });

  it("is cleared by the same repository only for the name under another scope, when maintainers are not named", async () => {
    written["orig-plain"] = packument("orig-plain", "git://github.com/alice/orig-plain.git");
    const fork = pkg("@forks/orig-plain", { repositoryUrl: "https://github.com/alice/orig-plain" });
    expect(await ownFork("npm", fork, match("orig-plain", "scope"))).toBe("same_repository");
    // A look-alike name with a copied repository field is exactly what a squat does: not cleared.
    expect(await ownFork("npm", { ...fork, name: "orig-pla1n" }, match("orig-plain", "homoglyph"))).toBeNull();
    const elsewhere = pkg("@forks/orig-plain", { repositoryUrl: "https://github.com/forks/orig-plain" });
    expect(await ownFork("npm", elsewhere, match("orig-plain", "scope"))).toBeNull();
  });

  it("is not cleared when the popular package's document cannot be read", async () => {
    const fork = pkg("@forks/orig-missing", { repositoryUrl: "https://github.com/example/orig-missing" });
    expect(await ownFork("npm", fork, match("orig-missing", "scope"))).toBeNull();
  });
});

/** A lockfile of the given packages, as npm writes it, scanned by a fresh workspace: the packages' findings by name. */
async function scanLockfile(entries: Record<string, string>): Promise<Map<string, Finding[]>> {
  const body = JSON.stringify({
    name: "service",
    lockfileVersion: 3,
    packages: {
      "": { name: "service" },
      ...Object.fromEntries(Object.entries(entries).map(([name, version]) => [`node_modules/${name}`, { version }])),
    },
  });
  process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS = "30000";
  const ws = await app.seedWorkspace();
  const res = await app.request("POST", "/v1/vulnerabilities/scan", {
    key: ws.apiKey,
    body,
    headers: { "Content-Type": "application/json" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new Map((res.body.packages as Scanned[]).map((p) => [p.name, p.findings]));
}

describe("the repository link of the scanned version", () => {
  // @prisma/engines-version: its `latest` tag is a 0.0.1 placeholder without a repository and the document has no
  // top-level one; the version a lockfile holds links prisma/engines-wrapper (folder packages/engines-version).
  const versionLinked = (name: string, scanned: string, repository: Record<string, string> | undefined) => ({
    name,
    "dist-tags": { latest: "0.0.1" },
    versions: {
      "0.0.1": { name, version: "0.0.1" },
      [scanned]: { name, version: scanned, ...(repository ? { repository } : {}) },
    },
    time: { "0.0.1": "2026-01-01T00:00:00Z", [scanned]: "2026-06-01T00:00:00Z" },
  });

  it("is read from the scanned version's own document, not only the top level or the latest tag", async () => {
    written["@prisma/engines-version"] = versionLinked("@prisma/engines-version", "7.10.0-4.0edf323", {
      type: "git",
      url: "https://github.com/prisma/engines-wrapper.git",
      directory: "packages/engines-version",
    });
    // The same shape pointing at a popular unrelated project is still a mismatch, and a version with no link at all
    // still misses one.
    written["engines-lookalike"] = versionLinked("engines-lookalike", "2.0.0", {
      type: "git",
      url: "https://github.com/facebook/react.git",
    });
    written["engines-unlinked"] = versionLinked("engines-unlinked", "2.0.0", undefined);
    const found = await scanLockfile({
      "@prisma/engines-version": "7.10.0-4.0edf323",
      "engines-lookalike": "2.0.0",
      "engines-unlinked": "2.0.0",
    });
    const repositoryKinds = (name: string) =>
      found
        .get(name)!
        .filter((f) => f.kind.startsWith("repository_"))
        .map((f) => [f.kind, f.evidence]);
    expect(repositoryKinds("@prisma/engines-version")).toEqual([]);
    expect(repositoryKinds("engines-lookalike")).toEqual([
      ["repository_mismatch", { repositoryUrl: "https://github.com/facebook/react" }],
    ]);
    expect(repositoryKinds("engines-unlinked")).toEqual([["repository_missing", { repositoryUrl: null }]]);
  });

  it("takes the package's folder for an old version that links the same monorepo without one", async () => {
    // @types/estree 0.0.39 links DefinitelyTyped with no `directory` (older @types releases had none); the package's
    // link names the same repository with its folder types/estree. Another repository gets no folder from it.
    const dt = "https://github.com/DefinitelyTyped/DefinitelyTyped.git";
    const typesDoc = (name: string, oldLink: string) => {
      const directory = `types/${name.slice("@types/".length)}`;
      return {
        name,
        "dist-tags": { latest: "1.0.8" },
        repository: { type: "git", url: dt, directory },
        versions: {
          "0.0.39": { name, version: "0.0.39", repository: { type: "git", url: oldLink } },
          "1.0.8": { name, version: "1.0.8", repository: { type: "git", url: dt, directory } },
        },
        time: { "0.0.39": "2026-01-01T00:00:00Z", "1.0.8": "2026-06-01T00:00:00Z" },
      };
    };
    // The registry's 0.0.39 writes the host www.github.com: the same repository.
    written["@types/estree"] = typesDoc("@types/estree", "https://www.github.com/DefinitelyTyped/DefinitelyTyped.git");
    written["@types/estree-other"] = typesDoc("@types/estree-other", "https://github.com/mallory/DefinitelyTyped.git");
    const found = await scanLockfile({ "@types/estree": "0.0.39", "@types/estree-other": "0.0.39" });
    expect(found.get("@types/estree")!.map((f) => f.kind)).toEqual([]);
    expect(found.get("@types/estree-other")!.map((f) => f.kind)).toEqual(["repository_mismatch"]);
  });
});
