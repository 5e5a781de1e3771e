import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCidrOrThrow } from "../../server/cidr/check";
import { cidrUnits, parseIpv4Cidr, sampleAddresses } from "../../server/cidr/range";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";

describe("CIDR ranges", () => {
  it.each([
    [32, 1],
    [31, 2],
    [30, 4],
    [29, 8],
    [28, 7],
    [24, 7],
    [0, 7],
  ])("a /%i costs %i units", (prefix, units) => {
    expect(cidrUnits(prefix)).toBe(units);
  });

  it("checks every address of a /29, network and broadcast included", () => {
    const r = parseIpv4Cidr("203.0.113.8/29");
    if ("error" in r) throw new Error(r.error);
    expect(sampleAddresses(r)).toEqual([
      "203.0.113.8",
      "203.0.113.9",
      "203.0.113.10",
      "203.0.113.11",
      "203.0.113.12",
      "203.0.113.13",
      "203.0.113.14",
      "203.0.113.15",
    ]);
  });

  it("spreads 7 addresses over a wider range: first host, last host and the sixths between", () => {
    const r = parseIpv4Cidr("198.51.100.0/24");
    if ("error" in r) throw new Error(r.error);
    expect(sampleAddresses(r)).toEqual([
      "198.51.100.1",
      "198.51.100.42",
      "198.51.100.85",
      "198.51.100.128",
      "198.51.100.170",
      "198.51.100.213",
      "198.51.100.254",
    ]);
    const wide = parseIpv4Cidr("10.0.0.0/8");
    if ("error" in wide) throw new Error(wide.error);
    const s = sampleAddresses(wide);
    expect(new Set(s).size).toBe(7);
    expect(s[0]).toBe("10.0.0.1");
    expect(s[6]).toBe("10.255.255.254");
    const smallest = parseIpv4Cidr("192.0.2.16/28");
    if ("error" in smallest) throw new Error(smallest.error);
    expect(new Set(sampleAddresses(smallest)).size).toBe(7);
  });

  it("clears host bits and reads a bare address as /32", () => {
    expect(parseIpv4Cidr("203.0.113.5/29")).toMatchObject({ cidr: "203.0.113.0/29", hostBitsCleared: true });
    expect(parseIpv4Cidr("203.0.113.5")).toMatchObject({ cidr: "203.0.113.5/32", size: 1, hostBitsCleared: false });
  });

  it.each([
    "",
    "203.0.113.0/33",
    "203.0.113.0/-1",
    "203.0.113/24",
    "203.0.113.0/24/1",
    "2001:db8::/64",
    "example.com/24",
    "203.0.113.0/2a",
    "0x7f.0.0.1/32",
  ])("refuses %j", (input) => {
    expect("error" in parseIpv4Cidr(input)).toBe(true);
  });
});

describe("checkCidrOrThrow", () => {
  let dns: FakeDnsServer;
  beforeAll(async () => {
    dns = await startFakeDnsServer({
      records: { "3.2.0.192.zen.spamhaus.org": [{ type: "A", data: "127.0.0.2" }] },
    });
    process.env.SERVICE_DNS_SERVERS = dns.address;
    process.env.SERVICE_DNSBL_IP_ZONES = "zen.spamhaus.org";
  });
  afterAll(async () => {
    delete process.env.SERVICE_DNSBL_IP_ZONES;
    await dns.close();
  });

  it("checks each address of a /30 for reputation and against the blocklists", async () => {
    const r = await checkCidrOrThrow("192.0.2.0/30");
    expect(r).toMatchObject({
      cidr: "192.0.2.0/30",
      prefixLength: 30,
      totalAddresses: 4,
      sampling: "every_address",
      units: 4,
    });
    expect(r.addresses.map((a) => a.ip)).toEqual(["192.0.2.0", "192.0.2.1", "192.0.2.2", "192.0.2.3"]);
    expect(r.addresses[0].reputation).toMatchObject({
      ip: "192.0.2.0",
      classification: { scope: "documentation", bogon: true },
    });
    expect(r.addresses[0].reputation.risk.score).toEqual(expect.any(Number));
    expect(r.summary).toEqual({ checked: 4, listed: 1, incomplete: 0, listedAddresses: ["192.0.2.3"] });
    expect(r.addresses[3].blocklists.lists[0]).toMatchObject({ zone: "zen.spamhaus.org", status: "listed" });
    expect(r.sources.ipZones).toEqual(["zen.spamhaus.org"]);
    expect(dns.queries.filter((q) => q.name.endsWith(".zen.spamhaus.org") && q.type === "A")).toHaveLength(4);
  });

  it("gives a public address its origin AS from the shipped data", async () => {
    const r = await checkCidrOrThrow("8.8.8.8/32");
    expect(r.addresses[0].reputation.asn?.number).toBe(15169);
    expect(r.addresses[0].reputation.classification.bogon).toBe(false);
  });

  it("samples 7 addresses of a /16 and says which", async () => {
    const r = await checkCidrOrThrow("192.0.0.0/16");
    expect(r.units).toBe(7);
    expect(r.sampling).toBe("spread_sample");
    expect(r.samplingDescription).toMatch(/1\/6/);
    expect(r.addresses).toHaveLength(7);
  });

  it("throws INVALID_REQUEST for an IPv6 range", async () => {
    await expect(checkCidrOrThrow("2001:db8::/126")).rejects.toMatchObject({ appCode: "INVALID_REQUEST" });
  });
});
