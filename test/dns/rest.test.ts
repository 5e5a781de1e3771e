// The five routes of this area through the real REST API (/v1), as API clients call them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../harness";
import { startAppWithFakeDns } from "../fakes/app-with-dns";
import type { FakeDnsServer } from "../fakes/dns-server";

let app: TestApp;
let dns: FakeDnsServer;
beforeAll(async () => {
  ({ app, dns } = await startAppWithFakeDns({
    "acme.test": [
      { type: "A", data: "192.0.2.1", ttl: 90 },
      { type: "MX", data: { preference: 10, exchange: "mx.acme.test" }, ttl: 600 },
      { type: "TXT", data: ["v=spf1 mx -all"] },
    ],
    "_dmarc.acme.test": [{ type: "TXT", data: ["v=DMARC1; p=quarantine; rua=mailto:d@acme.test"] }],
    "2.0.0.127.zen.spamhaus.org": [{ type: "A", data: "127.0.0.2" }],
  }));
});
afterAll(() => dns.close());

describe("REST API", () => {
  it("GET /v1/dns/lookup answers with TTLs and quota headers", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await app.request("GET", "/v1/dns/lookup?domain=acme.test&type=mx", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.records).toEqual([
      {
        name: "acme.test",
        type: "MX",
        ttl: 600,
        value: "10 mx.acme.test",
        data: { preference: 10, exchange: "mx.acme.test" },
      },
    ]);
    expect(res.headers.get("x-service-quota-used")).toBe("1");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("GET /v1/dns/lookup defaults to A and refuses an unknown type with 400 and no unit", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const ok = await app.request("GET", "/v1/dns/lookup?domain=acme.test", { key: ws.apiKey });
    expect(ok.body).toMatchObject({ type: "A", status: "NOERROR", records: [{ value: "192.0.2.1", ttl: 90 }] });
    const bad = await app.request("GET", "/v1/dns/lookup?domain=acme.test&type=AXFR", { key: ws.apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { code: "INVALID_REQUEST", message: expect.stringMatching(/type/) } });
    const missing = await app.request("GET", "/v1/dns/lookup", { key: ws.apiKey });
    expect(missing.status).toBe(400);
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("POST /v1/email/check and GET /v1/email/security answer for one unit each", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const check = await app.request("POST", "/v1/email/check", { key: ws.apiKey, body: { email: "sales@acme.test" } });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ roleAccount: true, mx: { status: "present" } });
    const sec = await app.request("GET", "/v1/email/security?domain=acme.test&selectors=s2024", { key: ws.apiKey });
    expect(sec.status).toBe(200);
    expect(sec.body.spf.status).toBe("pass");
    expect(sec.body.dmarc.policy).toBe("quarantine");
    expect(sec.body.dkim.selectorsChecked[0]).toBe("s2024");
    expect(await app.used(ws.workspaceId)).toBe(2);
  });

  it("POST /v1/blocklists/check needs bulk for two targets and charges per target", async () => {
    const single = await app.seedWorkspace({ plans: ["suite_starter"] });
    const denied = await app.request("POST", "/v1/blocklists/check", {
      key: single.apiKey,
      body: { targets: ["127.0.0.2", "acme.test"] },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("BULK_LOOKUPS_REQUIRED");
    const bulk = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await app.request("POST", "/v1/blocklists/check", {
      key: bulk.apiKey,
      body: { targets: ["127.0.0.2", "acme.test"] },
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => r.status)).toEqual(["listed", "not_listed"]);
    expect(res.headers.get("x-service-quota-used")).toBe("2");
  });

  it("POST /v1/cidr/check needs bulk lookups whatever the range, and its refusal does not suggest one target", async () => {
    const single = await app.seedWorkspace({ plans: ["suite_starter"] });
    const denied = await app.request("POST", "/v1/cidr/check", { key: single.apiKey, body: { cidr: "127.0.0.0/32" } });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toEqual({
      code: "BULK_LOOKUPS_REQUIRED",
      message: expect.stringMatching(/^This endpoint needs bulk lookups \(.+\); change the plan to use it\.$/),
    });
    expect(await app.used(single.workspaceId)).toBe(0);
  });

  it("POST /v1/cidr/check charges 8 units for a /29", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_agency"] });
    const res = await app.request("POST", "/v1/cidr/check", { key: ws.apiKey, body: { cidr: "127.0.0.0/29" } });
    expect(res.status).toBe(200);
    expect(res.body.summary.listedAddresses).toEqual(["127.0.0.2"]);
    expect(res.headers.get("x-service-quota-used")).toBe("8");
  });

  it("publishes the five routes in the OpenAPI document", async () => {
    const res = await app.request("GET", "/v1/openapi.json");
    for (const [path, method] of [
      ["/dns/lookup", "get"],
      ["/email/check", "post"],
      ["/email/security", "get"],
      ["/blocklists/check", "post"],
      ["/cidr/check", "post"],
    ]) {
      expect(res.body.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
  });
});
