// The IP, ASN and RDAP routes through the real REST API: capability, units, validation before reservation,
// and upstream failures whose unit is given back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { warmIpFeeds } from "../../server/ip/reputation";
import { startRdapServer, type FakeRdapServer } from "../fakes/rdap-server";

let app: TestApp;
let rdap: FakeRdapServer;

beforeAll(async () => {
  app = await createTestApp();
  rdap = await startRdapServer({
    "ip/8.8.8.8": { handle: "NET-8-8-8-0-2", name: "GOGL", startAddress: "8.8.8.0", endAddress: "8.8.8.255" },
  });
  process.env.SERVICE_RDAP_BASE_URL = rdap.url;
  await warmIpFeeds(); // parsing the routing tables takes seconds; keep it out of the tests' timeouts
}, 180_000);
afterAll(async () => {
  await rdap.close();
  delete process.env.SERVICE_RDAP_BASE_URL;
});

describe("REST: IP, ASN and RDAP routes", () => {
  it("GET /v1/ip/{ip} and /reputation answer the same reputation object for one unit each", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const a = await app.request("GET", "/v1/ip/1.1.1.1", { key: ws.apiKey });
    expect(a.status).toBe(200);
    expect(a.headers.get("x-service-quota-used")).toBe("1");
    expect(a.body).toMatchObject({ ip: "1.1.1.1", asn: { number: 13335 }, network: { type: "hosting" } });
    const b = await app.request("GET", "/v1/ip/1.1.1.1/reputation", { key: ws.apiKey });
    expect(b.status).toBe(200);
    expect(b.body.risk).toEqual(a.body.risk);
    expect(await app.used(ws.workspaceId)).toBe(2);
  });

  it("an invalid IP or ASN is 400 and consumes no unit", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    expect((await app.request("GET", "/v1/ip/999.1.1.1", { key: ws.apiKey })).status).toBe(400);
    expect((await app.request("GET", "/v1/ip/not-an-ip/rdap", { key: ws.apiKey })).status).toBe(400);
    const asn = await app.request("GET", "/v1/asn/abc", { key: ws.apiKey });
    expect(asn.status).toBe(400);
    expect(asn.body.error.code).toBe("INVALID_REQUEST");
    expect((await app.request("GET", "/v1/domain/not_a_domain/rdap", { key: ws.apiKey })).status).toBe(400);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  // The spec types the path's asn as an integer; the document said string.
  it("documents /asn/{asn} as the spec's integer, and still reads AS13335", async () => {
    const doc = (await app.request("GET", "/v1/openapi.json")).body;
    expect(doc.paths["/asn/{asn}"].get.parameters).toEqual([
      expect.objectContaining({
        in: "path",
        name: "asn",
        schema: { type: "integer", minimum: 1, maximum: 4294967294 },
      }),
    ]);
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    for (const spelling of ["AS15169", "as15169"]) {
      const r = await app.request("GET", `/v1/asn/${spelling}`, { key: ws.apiKey });
      expect(r.status, spelling).not.toBe(400);
    }
    for (const bad of ["0", "4294967295", "1.5", "1e3"])
      expect((await app.request("GET", `/v1/asn/${bad}`, { key: ws.apiKey })).status, bad).toBe(400);
  });

  it("the Free plan gets 403 CAPABILITY_REQUIRED", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const r = await app.request("GET", "/v1/asn/13335", { key: ws.apiKey });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("CAPABILITY_REQUIRED");
  });

  it("GET /v1/ip/{ip}/rdap answers from the registry; when it is down, 503 and its unit is given back", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const ok = await app.request("GET", "/v1/ip/8.8.8.8/rdap", { key: ws.apiKey });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: "GOGL", source: { registry: "ARIN" } });
    rdap.failWith(503);
    try {
      const down = await app.request("GET", "/v1/ip/8.8.8.8/rdap", { key: ws.apiKey });
      expect(down.status).toBe(503);
      expect(down.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    } finally {
      rdap.failWith(null);
    }
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  // An IPv6 address has many spellings of one host: the registry was asked (and the answer and history said) the
  // spelling as sent, so a registry that matches its canonical form answered 404 NOT_FOUND, and charged, for
  // "2A00:1450:4001:082A:0:0:0:200E" while "2a00:1450:4001:82a::200e" was found.
  it.each(["2A00:1450:4001:82A::200E", "2a00:1450:4001:082a:0000:0000:0000:200e"])(
    "GET /v1/ip/%s/rdap and /abuse ask the registry for the RFC 5952 form",
    async (spelling) => {
      const canonical = "2a00:1450:4001:82a::200e";
      rdap.set(`ip/${canonical}`, {
        handle: "NET6-GOGL",
        name: "GOGL6",
        startAddress: "2a00:1450::",
        endAddress: "2a00:1450:ffff:ffff:ffff:ffff:ffff:ffff",
      });
      const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
      rdap.requests.length = 0;
      const res = await app.request("GET", `/v1/ip/${encodeURIComponent(spelling)}/rdap`, { key: ws.apiKey });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ip: canonical, name: "GOGL6" });
      const abuse = await app.request("GET", `/v1/ip/${encodeURIComponent(spelling)}/abuse`, { key: ws.apiKey });
      expect(abuse.status).toBe(200);
      expect(abuse.body.ip).toBe(canonical);
      expect(rdap.requests).toEqual([`ip/${canonical}`, `ip/${canonical}`]);
    },
  );

  it("GET /v1/domain/{domain}/rdap for an unregistered name is 404 DOMAIN_NOT_FOUND", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const r = await app.request("GET", "/v1/domain/unregistered-name.com/rdap", { key: ws.apiKey });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("DOMAIN_NOT_FOUND");
  });

  it("GET /v1/asn/AS13335 accepts the AS prefix", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const r = await app.request("GET", "/v1/asn/AS13335", { key: ws.apiKey });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ asn: 13335, organization: "Cloudflare, Inc." });
  });
});
