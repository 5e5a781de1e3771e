// The four vulnerability routes through the real REST API (needs `vulnerabilities: vulnerabilitiesRouter` in
// server/api/root.ts): Free plan allowed, 1 unit per admitted request, 400s that cost nothing, trailing slashes.
import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { useFakePackageSources } from "./fake-sources";

const fake = useFakePackageSources();
let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe("vulnerability routes", () => {
  it("serves the npm report for a URL-encoded scoped name on the Free plan for one unit", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/vulnerabilities/npm/%40acme%2Fwidget/", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.package.name).toBe("@acme/widget");
    expect(res.body.summary.total).toBe(2);
    expect(res.headers.get("x-service-quota-used")).toBe("1");
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("gives back the unit of an admitted request whose upstream fails (503)", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    fake.current.down.add("osv");
    const res = await app.request("GET", "/v1/vulnerabilities/npm/jquery/", { key: ws.apiKey });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(2);
  });

  it("names the package a failed multi-ecosystem lookup asked for in the lookup history, not its ecosystem", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const missing = await app.request("GET", "/v1/vulnerabilities/packages/npm/jquery/?version=9.9.9", {
      key: ws.apiKey,
    });
    expect(missing.status).toBe(404);
    const history = await app.request("GET", "/v1/lookups/history", { key: ws.apiKey });
    expect(history.body.items.map((e: { target: string; status: number }) => [e.target, e.status])).toEqual([
      ["npm:jquery@9.9.9", 404],
    ]);
  });

  it("answers 404 PACKAGE_NOT_FOUND and VERSION_NOT_FOUND in the error body", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const missing = await app.request("GET", "/v1/vulnerabilities/npm/does-not-exist/", { key: ws.apiKey });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("PACKAGE_NOT_FOUND");
    const version = await app.request("GET", "/v1/vulnerabilities/packages/npm/jquery/?version=9.9.9", {
      key: ws.apiKey,
    });
    expect(version.status).toBe(404);
    expect(version.body.error.code).toBe("VERSION_NOT_FOUND");
  });

  it("serves the multi-ecosystem report with an encoded Go module path and paging from the query", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request(
      "GET",
      "/v1/vulnerabilities/packages/go/github.com%2Fgin-gonic%2Fgin/?version=v1.9.0&limit=1&offset=0",
      { key: ws.apiKey },
    );
    expect(res.status).toBe(200);
    expect(res.body.version.selected).toBe("v1.9.0");
    expect(res.body.pagination).toEqual({ limit: 1, offset: 0, total: 1, hasMore: false });
  });

  it.each([
    "/v1/vulnerabilities/packages/cargo/serde/",
    "/v1/vulnerabilities/packages/npm/jquery/?limit=0",
    "/v1/vulnerabilities/packages/npm/jquery/?limit=501",
    "/v1/vulnerabilities/packages/npm/jquery/?offset=-1",
    "/v1/vulnerabilities/packages/maven/log4j-core/",
    "/v1/vulnerabilities/cve/CVE-21-1/",
    "/v1/vulnerabilities/kev/?added_since=yesterday",
  ])("rejects %s with 400 and consumes no unit", async (path) => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", path, { key: ws.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("looks up a CVE and searches the catalog, each answer naming the catalog version", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const cve = await app.request("GET", "/v1/vulnerabilities/cve/CVE-2020-11023/", { key: ws.apiKey });
    expect(cve.status).toBe(200);
    expect(cve.body.knownExploited.cveId).toBe("CVE-2020-11023");
    const unknown = await app.request("GET", "/v1/vulnerabilities/cve/CVE-2099-0001/", { key: ws.apiKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("CVE_NOT_FOUND");
    const kev = await app.request("GET", "/v1/vulnerabilities/kev/?vendor=microsoft&ransomware=false&limit=2", {
      key: ws.apiKey,
    });
    expect(kev.status).toBe(200);
    expect(kev.body.catalog.version).toBe("2025.08.25");
    expect(kev.body.vulnerabilities).toHaveLength(2);
    expect(kev.body.total).toBe(241);
    expect(await app.used(ws.workspaceId)).toBe(3);
  });

  it("requires an API key", async () => {
    const res = await app.request("GET", "/v1/vulnerabilities/kev/");
    expect(res.status).toBe(401);
  });
});
