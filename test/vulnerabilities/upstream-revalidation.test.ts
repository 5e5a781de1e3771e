// Cheap refreshes (issue 46, item 5): an upstream answer whose cache time ran out is asked for again with
// If-None-Match / If-Modified-Since; a 304 renews it with the value already parsed (no body read, no parse, the same
// object, so what was derived from it stays), a changed ETag gives the new body, and a source without validators
// is simply asked again. Counted at fake upstreams on 127.0.0.1; the dependency scan does the same through the REST
// route, and a document's per-version facts (the new-publisher check) are derived once per document version.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  clearUpstreamCache,
  expireUpstreamCache,
  fetchUpstream,
  resetUpstreamCalls,
  upstreamCallCounts,
  upstreamNotModifiedCounts,
} from "../../server/providers/packages/http";
import { getNpmPackage } from "../../server/providers/packages/npm-registry";
import { supplyChainFindings } from "../../server/vulnerabilities/supply-chain";
import { createTestApp } from "../harness";
import { useFakeEpss, useFakePackageSources } from "./fake-sources";

type Doc = { body: string; etag?: string; lastModified?: string };
type Seen = { path: string; ifNoneMatch: string | null; ifModifiedSince: string | null; status: number };

/** An upstream that serves documents by path with the validators given, and answers 304 as RFC 9110 says. */
async function startUpstream() {
  const docs = new Map<string, Doc>();
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]!);
    const doc = docs.get(path);
    const ifNoneMatch = (req.headers["if-none-match"] as string | undefined) ?? null;
    const ifModifiedSince = (req.headers["if-modified-since"] as string | undefined) ?? null;
    const record = (status: number) => seen.push({ path, ifNoneMatch, ifModifiedSince, status });
    if (!doc) {
      record(404);
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
      return;
    }
    const validators = {
      ...(doc.etag ? { etag: doc.etag } : {}),
      ...(doc.lastModified ? { "last-modified": doc.lastModified } : {}),
    };
    const unchanged =
      ifNoneMatch !== null
        ? doc.etag !== undefined && ifNoneMatch === doc.etag
        : ifModifiedSince !== null &&
          doc.lastModified !== undefined &&
          Date.parse(ifModifiedSince) >= Date.parse(doc.lastModified);
    if (unchanged) {
      record(304);
      res.writeHead(304, validators).end();
      return;
    }
    record(200);
    res.writeHead(200, { "content-type": "application/json", ...validators }).end(doc.body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    docs,
    seen,
    statuses: (path: string) => seen.filter((s) => s.path === path).map((s) => s.status),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const upstream = await startUpstream();
afterAll(() => upstream.close());

/** A parse that counts its runs: a 304 must not run it. */
function countingParse() {
  const parse = (body: string) => {
    parse.runs++;
    return JSON.parse(body) as { n: number };
  };
  parse.runs = 0;
  return parse;
}

describe("conditional revalidation of expired upstream answers", () => {
  beforeEach(() => {
    clearUpstreamCache();
    resetUpstreamCalls();
    upstream.seen.length = 0;
    upstream.docs.clear();
  });

  it("asks with If-None-Match after expiry; the 304 keeps the same parsed value and parses nothing", async () => {
    upstream.docs.set("/etag", { body: '{"n":1}', etag: '"v1"', lastModified: "Wed, 18 Nov 2026 10:00:00 GMT" });
    const url = `${upstream.base}/etag`;
    const parse = countingParse();
    const first = await fetchUpstream({ source: "npm", url }, parse);
    expect(first).toMatchObject({ kind: "ok", value: { n: 1 }, cached: false });

    // Within its time: no request at all.
    const warm = await fetchUpstream({ source: "npm", url }, parse);
    expect(warm).toMatchObject({ kind: "ok", cached: true });
    expect(upstream.seen).toHaveLength(1);

    expireUpstreamCache();
    const renewed = await fetchUpstream({ source: "npm", url }, parse);
    expect(upstream.seen[1]).toEqual({
      path: "/etag",
      ifNoneMatch: '"v1"',
      ifModifiedSince: "Wed, 18 Nov 2026 10:00:00 GMT",
      status: 304,
    });
    expect(renewed.kind).toBe("ok");
    if (renewed.kind !== "ok" || first.kind !== "ok") throw new Error("unreachable");
    expect(renewed.value).toBe(first.value); // the same object: nothing parsed again
    expect(parse.runs).toBe(1);
    expect(renewed.cached).toBe(false); // the source was asked
    expect(Date.parse(renewed.fetchedAt)).toBeGreaterThanOrEqual(Date.parse(first.fetchedAt));
    expect(upstreamCallCounts()).toEqual({ npm: 2 });
    expect(upstreamNotModifiedCounts()).toEqual({ npm: 1 });

    // The 304 renewed the entry's time: the next lookup asks nothing.
    await fetchUpstream({ source: "npm", url }, parse);
    expect(upstream.seen).toHaveLength(2);
  });

  it("takes the new body when the ETag changed, and revalidates against the new ETag afterwards", async () => {
    upstream.docs.set("/changing", { body: '{"n":1}', etag: '"v1"' });
    const url = `${upstream.base}/changing`;
    const parse = countingParse();
    await fetchUpstream({ source: "pypi", url }, parse);
    upstream.docs.set("/changing", { body: '{"n":2}', etag: '"v2"' });

    expireUpstreamCache();
    const changed = await fetchUpstream({ source: "pypi", url }, parse);
    expect(changed).toMatchObject({ kind: "ok", value: { n: 2 } });
    expect(upstream.seen.map((s) => [s.ifNoneMatch, s.status])).toEqual([
      [null, 200],
      ['"v1"', 200],
    ]);
    expect(parse.runs).toBe(2);

    expireUpstreamCache();
    const again = await fetchUpstream({ source: "pypi", url }, parse);
    expect(again).toMatchObject({ kind: "ok", value: { n: 2 } });
    expect(upstream.seen[2]).toMatchObject({ ifNoneMatch: '"v2"', status: 304 });
    expect(parse.runs).toBe(2);
    expect(upstreamNotModifiedCounts()).toEqual({ pypi: 1 });
  });

  it("asks with If-Modified-Since when the source gives only Last-Modified", async () => {
    upstream.docs.set("/dated", { body: '{"n":3}', lastModified: "Thu, 19 Nov 2026 08:00:00 GMT" });
    const url = `${upstream.base}/dated`;
    const parse = countingParse();
    const first = await fetchUpstream({ source: "packagist", url }, parse);
    expireUpstreamCache();
    const renewed = await fetchUpstream({ source: "packagist", url }, parse);
    expect(upstream.seen[1]).toEqual({
      path: "/dated",
      ifNoneMatch: null,
      ifModifiedSince: "Thu, 19 Nov 2026 08:00:00 GMT",
      status: 304,
    });
    expect(first.kind === "ok" && renewed.kind === "ok" && renewed.value === first.value).toBe(true);
    expect(parse.runs).toBe(1);
  });

  it("asks a source without validators again in full, and still answers", async () => {
    upstream.docs.set("/plain", { body: '{"n":4}' });
    const url = `${upstream.base}/plain`;
    const parse = countingParse();
    await fetchUpstream({ source: "osv", url }, parse);
    upstream.docs.set("/plain", { body: '{"n":5}' });
    expireUpstreamCache();
    const again = await fetchUpstream({ source: "osv", url }, parse);
    expect(again).toMatchObject({ kind: "ok", value: { n: 5 }, cached: false });
    expect(upstream.seen.map((s) => [s.ifNoneMatch, s.ifModifiedSince, s.status])).toEqual([
      [null, null, 200],
      [null, null, 200],
    ]);
    expect(parse.runs).toBe(2);
    expect(upstreamNotModifiedCounts()).toEqual({});
  });

  it("never sends validators with a POST (OSV's batch query), and keeps the expired answer when the source fails", async () => {
    upstream.docs.set("/batch", { body: '{"n":6}', etag: '"b1"' });
    const url = `${upstream.base}/batch`;
    const parse = countingParse();
    await fetchUpstream({ source: "osv", url, method: "POST", body: { q: 1 } }, parse);
    expireUpstreamCache();
    await fetchUpstream({ source: "osv", url, method: "POST", body: { q: 1 } }, parse);
    expect(upstream.seen.map((s) => s.ifNoneMatch)).toEqual([null, null]);

    // A failed revalidation answers unavailable and leaves the kept answer for the next try, which a 304 renews.
    upstream.docs.set("/kept", { body: '{"n":7}', etag: '"k1"' });
    const kept = `${upstream.base}/kept`;
    const first = await fetchUpstream({ source: "npm", url: kept }, parse);
    expireUpstreamCache();
    const doc = upstream.docs.get("/kept")!;
    upstream.docs.delete("/kept");
    const failed = await fetchUpstream({ source: "npm", url: kept, notFoundStatuses: [] }, parse);
    expect(failed).toMatchObject({ kind: "unavailable", reason: "answered HTTP 404" });
    upstream.docs.set("/kept", doc);
    const renewed = await fetchUpstream({ source: "npm", url: kept }, parse);
    expect(upstream.statuses("/kept")).toEqual([200, 404, 304]);
    expect(first.kind === "ok" && renewed.kind === "ok" && renewed.value === first.value).toBe(true);
  });
});

// A packument in the npm registry's shape: versions with publishers, and their publication times.
function packument(name: string, publishers: Record<string, string>) {
  const versions = Object.keys(publishers);
  return JSON.stringify({
    name,
    "dist-tags": { latest: versions[versions.length - 1] },
    repository: { type: "git", url: `git+https://github.com/example/${name}.git` },
    versions: Object.fromEntries(
      versions.map((v) => [v, { name, version: v, _npmUser: { name: publishers[v] }, license: "MIT" }]),
    ),
    time: Object.fromEntries(versions.map((v, i) => [v, `2026-0${i + 1}-01T00:00:00.000Z`])),
  });
}

describe("a registry document's per-version facts", () => {
  beforeAll(() => {
    process.env.SERVICE_NPM_REGISTRY_URL = `${upstream.base}/npm`;
  });
  afterAll(() => {
    delete process.env.SERVICE_NPM_REGISTRY_URL;
  });
  beforeEach(() => {
    clearUpstreamCache();
    resetUpstreamCalls();
    upstream.seen.length = 0;
    upstream.docs.clear();
  });

  it("are derived once per document version: a 304 keeps them, a changed document derives them again", async () => {
    const now = new Date("2026-11-25T00:00:00Z");
    upstream.docs.set("/npm/rv-hijacked", {
      body: packument("rv-hijacked", { "1.0.0": "alice", "1.1.0": "alice", "1.2.0": "mallory" }),
      etag: '"p1"',
    });
    const first = await getNpmPackage("rv-hijacked");
    if (first.kind !== "ok") throw new Error(`registry: ${first.kind}`);
    const found = supplyChainFindings("npm", first.value, "1.2.0", now, null);
    const newPublisher = found.find((f) => f.kind === "new_publisher");
    expect(newPublisher).toMatchObject({ evidence: { publisher: "mallory", earlierPublishers: ["alice"] } });

    expireUpstreamCache();
    const renewed = await getNpmPackage("rv-hijacked");
    if (renewed.kind !== "ok") throw new Error(`registry: ${renewed.kind}`);
    expect(upstream.statuses("/npm/rv-hijacked")).toEqual([200, 304]);
    expect(renewed.value).toBe(first.value);
    // The finding is the one derived before, not derived again.
    const again = supplyChainFindings("npm", renewed.value, "1.2.0", now, null);
    expect(again.find((f) => f.kind === "new_publisher")).toBe(newPublisher);

    // A new document version (mallory now published earlier releases too) is a new object: derived anew.
    upstream.docs.set("/npm/rv-hijacked", {
      body: packument("rv-hijacked", { "1.0.0": "alice", "1.1.0": "mallory", "1.2.0": "mallory" }),
      etag: '"p2"',
    });
    expireUpstreamCache();
    const changed = await getNpmPackage("rv-hijacked");
    if (changed.kind !== "ok") throw new Error(`registry: ${changed.kind}`);
    expect(changed.value).not.toBe(first.value);
    const kinds = (v: string) => supplyChainFindings("npm", changed.value, v, now, null).map((f) => f.kind);
    expect(kinds("1.2.0")).not.toContain("new_publisher");
    expect(kinds("1.1.0")).toContain("new_publisher");
  });

  it("judge a new publisher against the earlier versions in the ecosystem's order, not the document's", async () => {
    // Listed out of order, with a prerelease and a version npm's order cannot read (no evidence either way).
    const pkg = {
      name: "rv-order",
      latestVersion: "2.0.0",
      description: null,
      license: "MIT",
      repositoryUrl: "https://github.com/example/rv-order",
      versions: ["2.0.0", "not-a-version", "1.0.0", "2.0.0-rc.1", "1.5.0"],
      publishedAt: {},
      versionFacts: {
        "2.0.0": { publisher: "carol" },
        "not-a-version": { publisher: "dave" },
        "1.0.0": { publisher: "alice" },
        "2.0.0-rc.1": { publisher: "bob" },
        "1.5.0": { publisher: "alice" },
      },
    };
    const kinds = (v: string) =>
      supplyChainFindings("npm", pkg, v, new Date(), null)
        .filter((f) => f.kind === "new_publisher")
        .map((f) => f.evidence);
    expect(kinds("1.0.0")).toEqual([]);
    expect(kinds("1.5.0")).toEqual([]);
    expect(kinds("2.0.0-rc.1")).toEqual([{ publisher: "bob", earlierPublishers: ["alice"] }]);
    expect(kinds("2.0.0")).toEqual([{ publisher: "carol", earlierPublishers: ["alice", "bob"] }]);
    expect(kinds("not-a-version")).toEqual([]);
  });
});

describe("a dependency scan after its cache entries expired", () => {
  useFakePackageSources(); // OSV and the rest; the npm registry is the upstream above, with validators
  useFakeEpss();
  const lock = JSON.stringify({
    name: "rv-app",
    version: "1.0.0",
    lockfileVersion: 3,
    requires: true,
    packages: {
      "": { name: "rv-app", version: "1.0.0", dependencies: { "rv-hijacked": "^1.0.0", "rv-steady": "^2.0.0" } },
      "node_modules/rv-hijacked": { version: "1.2.0" },
      "node_modules/rv-steady": { version: "2.0.0" },
    },
  });
  beforeEach(() => {
    process.env.SERVICE_NPM_REGISTRY_URL = `${upstream.base}/npm`;
    upstream.seen.length = 0;
    upstream.docs.clear();
    upstream.docs.set("/npm/rv-hijacked", {
      body: packument("rv-hijacked", { "1.0.0": "alice", "1.1.0": "alice", "1.2.0": "mallory" }),
      etag: '"h1"',
      lastModified: "Wed, 18 Nov 2026 10:00:00 GMT",
    });
    // A registry that sends no validators: asked again in full after expiry, and still answered.
    upstream.docs.set("/npm/rv-steady", { body: packument("rv-steady", { "1.0.0": "erin", "2.0.0": "erin" }) });
  });
  afterAll(() => {
    delete process.env.SERVICE_NPM_REGISTRY_URL;
  });

  it("revalidates the registry documents (304 where the registry gave validators) and answers the same", async () => {
    // The fakes answer from this worker's own event loop: a loaded machine's first REST request (store, key,
    // reservation) can hold it past the 5 s default (as in malware-report.test.ts).
    process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS = "30000";
    const app = await createTestApp();
    const ws = await app.seedWorkspace();
    const scan = () =>
      app.request("POST", "/v1/vulnerabilities/scan", {
        key: ws.apiKey,
        body: lock,
        headers: { "Content-Type": "text/plain" },
      });
    const first = await scan();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(upstream.statuses("/npm/rv-hijacked")).toEqual([200]);

    const warm = await scan();
    expect(warm.status).toBe(200);
    expect(upstream.seen).toHaveLength(2); // one document each, the warm scan asked nothing

    expireUpstreamCache();
    const renewed = await scan();
    expect(renewed.status).toBe(200);
    expect(upstream.statuses("/npm/rv-hijacked")).toEqual([200, 304]);
    expect(upstream.seen.filter((s) => s.path === "/npm/rv-hijacked")[1]).toMatchObject({ ifNoneMatch: '"h1"' });
    expect(upstream.statuses("/npm/rv-steady")).toEqual([200, 200]);
    const findings = (body: any) =>
      body.packages.map((p: any) => [p.name, p.registry.status, p.findings.map((f: any) => f.kind).sort()]);
    expect(findings(renewed.body)).toEqual(findings(first.body));
    expect(findings(renewed.body)).toContainEqual(["rv-hijacked", "ok", ["new_publisher"]]);
    const registry = renewed.body.sources.find((s: any) => s.source === "registry:npm");
    expect(registry).toMatchObject({ status: "ok", cached: false });
  });
});
