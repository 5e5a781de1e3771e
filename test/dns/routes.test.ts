import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../harness";
import { startAppWithFakeDns } from "../fakes/app-with-dns";
import type { FakeDnsServer } from "../fakes/dns-server";
import { callProcedure } from "./call";

let app: TestApp;
let dns: FakeDnsServer;
beforeAll(async () => {
  ({ app, dns } = await startAppWithFakeDns({
    "example.test": [
      { type: "A", data: "192.0.2.10", ttl: 120 },
      { type: "MX", data: { preference: 10, exchange: "mx.example.test" }, ttl: 3600 },
    ],
    "alias.example.test": [{ type: "CNAME", data: "example.test", ttl: 30 }],
    "34.216.184.93.in-addr.arpa": [{ type: "PTR", data: "host.example.test" }],
    "xn--bcher-kva.test": [{ type: "A", data: "192.0.2.77" }],
  }));
});
afterAll(() => dns.close());

describe("dns.lookup", () => {
  it("answers A records with TTLs, the resolver and one unit", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "Example.Test." });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      domain: "example.test",
      queryName: "example.test",
      type: "A",
      status: "NOERROR",
      records: [{ name: "example.test", type: "A", ttl: 120, value: "192.0.2.10", data: null }],
      aliases: [],
      negativeTtl: null,
      resolver: { servers: [dns.address], answeredBy: dns.address, transport: "udp" },
    });
    expect(Date.parse(res.body.checkedAt)).not.toBeNaN();
    expect(res.headers.get("x-service-quota-used")).toBe("1");
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("accepts a lower-case type, follows CNAMEs and decodes MX", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "alias.example.test", type: "mx" });
    expect(res.body.type).toBe("MX");
    expect(res.body.aliases.map((r: any) => r.value)).toEqual(["example.test"]);
    expect(res.body.records).toEqual([
      {
        name: "example.test",
        type: "MX",
        ttl: 3600,
        value: "10 mx.example.test",
        data: { preference: 10, exchange: "mx.example.test" },
      },
    ]);
  });

  it("tells NXDOMAIN from NODATA, with the negative-caching TTL", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const nx = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "nope.example.test" });
    expect(nx.body).toMatchObject({ status: "NXDOMAIN", records: [], negativeTtl: 60, authority: { type: "SOA" } });
    const nodata = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "example.test", type: "AAAA" });
    expect(nodata.body).toMatchObject({ status: "NODATA", records: [] });
    expect(nodata.body.statusMeaning).toMatch(/exists but has no records/);
  });

  it("looks up PTR for an IP address and punycodes an IDN", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const ptr = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "93.184.216.34", type: "PTR" });
    expect(ptr.body).toMatchObject({
      domain: "93.184.216.34",
      queryName: "34.216.184.93.in-addr.arpa",
      records: [{ value: "host.example.test" }],
    });
    // An IPv4-mapped address is its IPv4 host: the PTR asked is the in-addr.arpa one, not the undelegated ip6.arpa name.
    const mapped = await callProcedure(app, ws.apiKey, "dns.dnsLookup", {
      domain: "::ffff:93.184.216.34",
      type: "PTR",
    });
    expect(mapped.body).toMatchObject({
      domain: "93.184.216.34",
      queryName: "34.216.184.93.in-addr.arpa",
      records: [{ value: "host.example.test" }],
    });
    // A documentation address's reverse zone is served locally (RFC 6303), never asked: free 404.
    const documentation = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "192.0.2.10", type: "PTR" });
    expect(documentation.body.error.code).toBe("DOMAIN_NOT_FOUND");
    const idn = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "bücher.test" });
    expect(idn.body).toMatchObject({ domain: "xn--bcher-kva.test", records: [{ value: "192.0.2.77" }] });
  });

  it.each([
    [{ domain: "example.test", type: "ANY" }, /type/],
    [{ domain: "example.test", type: "DNSKEY" }, /type/],
    [{ domain: "exa mple.test" }, /domain/],
    [{ domain: "-bad-.test" }, /domain/],
    [{ domain: "192.0.2.10", type: "A" }, /domain/],
    [{ domain: "" }, /domain/],
    [{ domain: `${"a".repeat(64)}.test` }, /domain/],
  ])("refuses %j with 400 and no unit", async (input, message) => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await callProcedure(app, ws.apiKey, "dns.dnsLookup", input);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(res.body.error.message).toMatch(message);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("needs a full-intelligence plan", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "example.test" });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("CAPABILITY_REQUIRED");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("answers 503 UPSTREAM_UNAVAILABLE when the resolver is down, and gives its unit back", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    process.env.SERVICE_DNS_TIMEOUT_MS = "150";
    dns.down = true;
    try {
      const res = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "example.test" });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
      expect(res.body.error.message).toContain(dns.address);
      expect(await app.used(ws.workspaceId)).toBe(0);
    } finally {
      dns.down = false;
      delete process.env.SERVICE_DNS_TIMEOUT_MS;
    }
  });

  it("answers 503 when the resolver says a well-known domain does not exist, and an unknown name's NXDOMAIN as it is", async () => {
    // The fake resolver answers NXDOMAIN for every name it does not serve, as a broken or filtering resolver does.
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "gmail.com", type: "MX" });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(res.body.error).toMatchObject({ code: "UPSTREAM_UNAVAILABLE" });
    expect(res.body.error.message).toContain("the resolver is unreliable");
    const unknown = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "nothing-here.test" });
    expect(unknown.status).toBe(200);
    expect(unknown.body.status).toBe("NXDOMAIN");
    // Both asked the resolver; the NXDOMAIN is the resolver's answer and counts, the 503 was not answered.
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("reports SERVFAIL as the domain's status", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    dns.setFailure("broken.example.test", "SERVFAIL");
    const res = await callProcedure(app, ws.apiKey, "dns.dnsLookup", { domain: "broken.example.test" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "SERVFAIL", records: [], resolver: { answeredBy: dns.address } });
  });
});
