import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { callProcedure } from "../net/call";
import { ctEntry, startCtServer, type FakeCtServer } from "../fakes/ct-server";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";
import { startRdapServer, type FakeRdapServer } from "../fakes/rdap-server";

let app: TestApp;
let ct: FakeCtServer;
let dns: FakeDnsServer;
let rdap: FakeRdapServer;
const env = { ...process.env };

beforeAll(async () => {
  app = await createTestApp();
  ct = await startCtServer({
    "example.org": [ctEntry(["example.org", "www.example.org", "api.example.org"], "2024-03-01")],
  });
  dns = await startFakeDnsServer({
    records: {
      "www.example.org": [{ type: "CNAME", data: "example.org.cdn.cloudflare.net" }],
      "example.org.cdn.cloudflare.net": [{ type: "A", data: "104.18.2.2" }],
      "example.org": [{ type: "A", data: "93.184.216.34" }],
    },
  });
  rdap = await startRdapServer({
    "domain/example.org": {
      objectClassName: "domain",
      ldhName: "EXAMPLE.ORG",
      events: [{ eventAction: "registration", eventDate: "1995-04-30T04:00:00Z" }],
    },
  });
  Object.assign(process.env, {
    SERVICE_CT_URL: ct.url,
    SERVICE_CT_TIMEOUT_MS: "1000",
    SERVICE_DNS_SERVERS: dns.address,
    SERVICE_DNS_TIMEOUT_MS: "1000",
    SERVICE_DNSBL_DOMAIN_ZONES: "dbl.example.invalid",
    SERVICE_RDAP_BASE_URL: rdap.url,
  });
});

afterAll(async () => {
  process.env = env;
  await Promise.all([ct.close(), dns.close(), rdap.close()]);
});

describe("GET /domain/{domain}/subdomains", () => {
  it.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 501 }, "limit"],
    [{ limit: "ten" }, "limit"],
    [{ offset: -1 }, "offset"],
    [{ limit: 1.5 }, "limit"],
  ])("%j is 400 INVALID_REQUEST with no unit", async (query, field) => {
    const ws = await app.seedWorkspace();
    const res = await callProcedure(app, ws.apiKey, "domain.domainSubdomains", { domain: "example.org", ...query });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(res.body.error.message).toContain(field);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("accepts query strings as numbers, defaults to 100 and 0, and consumes one unit", async () => {
    const ws = await app.seedWorkspace();
    const res = await callProcedure(app, ws.apiKey, "domain.domainSubdomains", {
      domain: "www.example.org",
      limit: "2",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ apex: "example.org", total: 3, limit: 2, offset: 0, retained: false });
    expect(res.body.subdomains.map((s: { name: string }) => s.name)).toEqual(["api.example.org", "example.org"]);
    const all = await callProcedure(app, ws.apiKey, "domain.domainSubdomains", { domain: "example.org" });
    expect(all.body.limit).toBe(100);
    expect(await app.used(ws.workspaceId)).toBe(2);
  });

  it("serves the retained response when the source is down, and 503 (unit given back) when there is none", async () => {
    const ws = await app.seedWorkspace();
    await callProcedure(app, ws.apiKey, "domain.domainSubdomains", { domain: "example.org" });
    ct.mode = "down";
    try {
      const kept = await callProcedure(app, ws.apiKey, "domain.domainSubdomains", { domain: "example.org" });
      expect(kept.status).toBe(200);
      expect(kept.body).toMatchObject({ retained: true, total: 3 });
      const none = await callProcedure(app, ws.apiKey, "domain.domainSubdomains", { domain: "unseen.example.net" });
      expect(none.status).toBe(503);
      expect(none.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
      // The retained answer counts; the request nothing could answer gave its unit back (ledger: 1, 1, 1, -1).
      expect(await app.used(ws.workspaceId)).toBe(2);
      expect(await app.ledgerCount(ws.workspaceId)).toBe(4);
    } finally {
      ct.mode = "ok";
    }
  });

  it("a public suffix is 400 with no unit", async () => {
    const ws = await app.seedWorkspace();
    const res = await callProcedure(app, ws.apiKey, "domain.domainSubdomains", { domain: "co.uk" });
    expect(res.status).toBe(400);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

describe("GET /domain/{domain}/infrastructure", () => {
  it("answers with the edge identified and one unit", async () => {
    const ws = await app.seedWorkspace();
    const res = await callProcedure(app, ws.apiKey, "domain.domainInfrastructure", { domain: "www.example.org" });
    expect(res.status).toBe(200);
    expect(res.body.addresses[0]).toMatchObject({
      address: "104.18.2.2",
      edge: { provider: "Cloudflare" },
      network: { asn: 13335 },
    });
    expect(res.headers.get("x-service-quota-used")).toBe("1");
  });

  it("is 503 when DNS is down, and its unit is given back", async () => {
    const ws = await app.seedWorkspace();
    dns.down = true;
    try {
      const res = await callProcedure(app, ws.apiKey, "domain.domainInfrastructure", { domain: "example.org" });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
      expect(await app.used(ws.workspaceId)).toBe(0);
      expect(await app.ledgerCount(ws.workspaceId)).toBe(2);
    } finally {
      dns.down = false;
    }
  });

  it("an invalid name is 400 with no unit", async () => {
    const ws = await app.seedWorkspace();
    const res = await callProcedure(app, ws.apiKey, "domain.domainInfrastructure", { domain: "bad_host!.com" });
    expect(res.status).toBe(400);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

describe("GET /domain/{domain}", () => {
  it("answers the domain intelligence object for one unit", async () => {
    const ws = await app.seedWorkspace();
    const res = await callProcedure(app, ws.apiKey, "domain.domainIntel", { domain: "example.org" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      domain: "example.org",
      registrableDomain: "example.org",
      exists: true,
      registration: { createdAt: "1995-04-30T04:00:00.000Z" },
    });
    expect(res.body.risk.score).toBeGreaterThanOrEqual(0);
    expect(await app.used(ws.workspaceId)).toBe(1);
  });
});
