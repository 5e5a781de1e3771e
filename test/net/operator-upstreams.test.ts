// Addresses the operator configured are trusted; the SSRF guard is for targets users send (issue 42, item 10). An
// internal mirror of OSV or the npm registry on a private or loopback address is reached without
// SERVICE_ALLOW_PRIVATE_TARGETS, which would also open loopback to every user-supplied URL, while a user's URL at
// the same address stays refused in the same process.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { createTestApp } from "../harness";
import { useFakePackageSources } from "../vulnerabilities/fake-sources";

const sources = useFakePackageSources();
const app = await createTestApp();
const lock = readFileSync(path.join(__dirname, "../vulnerabilities/scan-fixtures/package-lock.json"), "utf8");

beforeEach(() => {
  delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS;
  delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS_IN_PRODUCTION;
});

describe("upstreams the operator configured on a loopback address", () => {
  it("are reached without SERVICE_ALLOW_PRIVATE_TARGETS, while a user's loopback URL is refused", async () => {
    expect(process.env.SERVICE_OSV_API_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    const ws = await app.seedWorkspace();
    const scan = await app.request("POST", "/v1/vulnerabilities/scan", {
      key: ws.apiKey,
      body: lock,
      headers: { "Content-Type": "text/plain" },
    });
    expect(scan.status).toBe(200);
    const osv = scan.body.sources.find((s: { source: string }) => s.source === "osv");
    expect(osv).toMatchObject({ status: "ok", reason: null });
    expect(sources.current.requests.osv).toBeGreaterThan(0);
    expect(sources.current.requests.npm).toBeGreaterThan(0);

    const user = await app.request("POST", "/v1/online-check", {
      key: ws.apiKey,
      body: { url: `${process.env.SERVICE_OSV_API_URL}/v1/query` },
    });
    expect(user.status).toBe(400);
    expect(user.body.error.message).toMatch(/loopback/);
  });
});
