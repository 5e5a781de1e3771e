import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getInfrastructureOrThrow } from "../../server/domain/infrastructure";
import { identifyEdge } from "../../server/domain/cdn";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";

let dns: FakeDnsServer;
const env = { ...process.env };

beforeAll(async () => {
  dns = await startFakeDnsServer({
    records: {
      "cf.example.com": [
        { type: "A", data: "104.16.1.1", ttl: 120 },
        { type: "AAAA", data: "2606:4700::1111", ttl: 120 },
      ],
      "www.example.com": [{ type: "CNAME", data: "d111.cloudfront.net", ttl: 60 }],
      "d111.cloudfront.net": [{ type: "A", data: "8.8.4.4", ttl: 30 }],
      "origin.example.com": [{ type: "A", data: "8.8.8.8" }],
      "lan.example.com": [{ type: "A", data: "10.1.2.3" }],
      "mail.example.com": [{ type: "MX", data: { preference: 10, exchange: "mx.example.com" } }],
      "broken.example.com": [{ type: "A", data: "8.8.8.8" }],
    },
  });
  dns.setFailure("broken.example.com", "SERVFAIL");
  process.env.SERVICE_DNS_SERVERS = dns.address;
  // Every name here is answered (a failure is a SERVFAIL, at once): a generous timeout keeps a busy machine's slow
  // answer from reading as a timeout (a fresh-clone CI run failed "origin.example.com failed (A TIMEOUT)" at 400 ms).
  process.env.SERVICE_DNS_TIMEOUT_MS = "3000";
});

afterAll(async () => {
  process.env = env;
  await dns.close();
});

describe("GET /domain/{domain}/infrastructure domain function", () => {
  it("gives each address its network and location, and names a Cloudflare edge as such", async () => {
    const r = await getInfrastructureOrThrow("cf.example.com");
    expect(r.addresses.map((x) => [x.address, x.recordType, x.ttl])).toEqual([
      ["104.16.1.1", "A", 120],
      ["2606:4700::1111", "AAAA", 120],
    ]);
    const v4 = r.addresses[0]!;
    expect(v4.network).toMatchObject({ asn: 13335, organization: expect.stringMatching(/Cloudflare/), reason: null });
    expect(v4.network.range).not.toBeNull();
    expect(v4.location.countryCode).toMatch(/^[A-Z]{2}$/);
    expect(v4.edge).toMatchObject({
      provider: "Cloudflare",
      kind: "reverse_proxy",
      evidence: expect.stringMatching(/published edge range 104\.16\.0\.0\/13/),
    });
    expect(r.behindEdge).toBe(true);
    expect(r.note).toMatch(/not the origin/);
    expect(r.sources.map((s) => s.name)).toEqual(["dns", "asn-ipv4", "geolocation"]);
  });

  it("follows the CNAME chain and names a CloudFront edge by its CNAME", async () => {
    const r = await getInfrastructureOrThrow("www.example.com");
    expect(r.cname).toEqual([{ name: "www.example.com", target: "d111.cloudfront.net", ttl: 60 }]);
    expect(r.addresses[0]).toMatchObject({
      address: "8.8.4.4",
      edge: { provider: "Amazon CloudFront", evidence: "the hostname is a CNAME to d111.cloudfront.net" },
    });
  });

  it("reports an ordinary address without an edge", async () => {
    const r = await getInfrastructureOrThrow("origin.example.com");
    expect(r.addresses[0]).toMatchObject({ address: "8.8.8.8", scope: "public", edge: null, network: { asn: 15169 } });
    expect(r.behindEdge).toBe(false);
    expect(r.note).toBeNull();
  });

  it("gives a private address null network and location with reasons", async () => {
    const r = await getInfrastructureOrThrow("lan.example.com");
    expect(r.addresses[0]).toMatchObject({
      scope: "private",
      network: { asn: null, reason: expect.stringMatching(/Private-use/) },
    });
    expect(r.addresses[0]!.location.reason).toBeTruthy();
  });

  it("answers an existing name without addresses with an empty list", async () => {
    const r = await getInfrastructureOrThrow("mail.example.com");
    expect(r.addresses).toEqual([]);
    expect(r.note).toMatch(/no A or AAAA/);
  });

  it("is 404 DOMAIN_NOT_FOUND for NXDOMAIN", async () => {
    await expect(getInfrastructureOrThrow("nothing.example.com")).rejects.toMatchObject({
      appCode: "DOMAIN_NOT_FOUND",
    });
  });

  it("is 503 UPSTREAM_UNAVAILABLE when DNS fails", async () => {
    await expect(getInfrastructureOrThrow("broken.example.com")).rejects.toMatchObject({
      appCode: "UPSTREAM_UNAVAILABLE",
    });
    dns.down = true;
    try {
      await expect(getInfrastructureOrThrow("origin.example.com")).rejects.toMatchObject({
        appCode: "UPSTREAM_UNAVAILABLE",
      });
    } finally {
      dns.down = false;
    }
  });
});

describe("identifyEdge", () => {
  it.each([
    ["151.101.65.140", null, [], "Fastly"],
    ["2a04:4e42::1", null, [], "Fastly"],
    ["23.1.2.3", 20940, [], "Akamai"],
    ["52.1.2.3", 16509, ["abc.elb.amazonaws.com"], "AWS Elastic Load Balancing"],
    ["76.76.21.21", 16509, ["cname.vercel-dns.com"], "Vercel"],
  ] as const)("%s (AS%s, %j) is %s", (ip, asn, cnames, provider) => {
    expect(identifyEdge(ip, asn, cnames)?.provider).toBe(provider);
  });

  it("does not call all of Amazon a CDN", () => {
    expect(identifyEdge("52.1.2.3", 16509, [])).toBeNull();
  });
});
