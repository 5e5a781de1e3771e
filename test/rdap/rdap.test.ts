import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDomainRdap, getDomainRdapOrThrow } from "../../server/providers/rdap/domain";
import { getIpRdapOrThrow, lookupIpRdap } from "../../server/providers/rdap/ip";
import { findRdapServer } from "../../server/providers/rdap/bootstrap";
import { startRdapServer, vcardEntity, type FakeRdapServer } from "../fakes/rdap-server";

let rdap: FakeRdapServer;

const network = {
  objectClassName: "ip network",
  handle: "NET-8-8-8-0-2",
  name: "GOGL",
  type: "DIRECT ALLOCATION",
  startAddress: "8.8.8.0",
  endAddress: "8.8.8.255",
  ipVersion: "v4",
  parentHandle: "NET-8-0-0-0-0",
  status: ["active"],
  cidr0_cidrs: [{ v4prefix: "8.8.8.0", length: 24 }],
  events: [
    { eventAction: "registration", eventDate: "2023-12-28T17:24:33-05:00" },
    { eventAction: "last changed", eventDate: "2023-12-28T17:24:56-05:00" },
  ],
  entities: [
    vcardEntity({
      handle: "GOGL",
      roles: ["registrant"],
      fn: "Google LLC",
      country: "US",
      entities: [
        vcardEntity({
          handle: "ABUSE5250-ARIN",
          roles: ["abuse"],
          fn: "Abuse",
          email: "network-abuse@google.com",
          tel: "+1-650-253-0000",
        }),
      ],
    }),
  ],
};

const domain = {
  objectClassName: "domain",
  handle: "2336799_DOMAIN_COM-VRSN",
  ldhName: "EXAMPLE.COM",
  status: ["client delete prohibited", "client transfer prohibited"],
  events: [
    { eventAction: "registration", eventDate: "1995-08-14T04:00:00Z" },
    { eventAction: "expiration", eventDate: "2026-08-13T04:00:00Z" },
    { eventAction: "last changed", eventDate: "2025-08-14T07:01:39Z" },
  ],
  entities: [
    {
      ...vcardEntity({ handle: "376", roles: ["registrar"], fn: "RESERVED-Internet Assigned Numbers Authority" }),
      publicIds: [{ type: "IANA Registrar ID", identifier: "376" }],
      entities: [vcardEntity({ handle: "", roles: ["abuse"], fn: "", email: "abuse@iana.org", tel: "+1.3108239358" })],
    },
  ],
  nameservers: [
    { objectClassName: "nameserver", ldhName: "A.IANA-SERVERS.NET" },
    { objectClassName: "nameserver", ldhName: "B.IANA-SERVERS.NET" },
  ],
  secureDNS: { delegationSigned: true },
};

beforeAll(async () => {
  rdap = await startRdapServer({
    "ip/8.8.8.8": network,
    "domain/example.com": domain,
    "domain/example.co.uk": { ...domain, ldhName: "example.co.uk" },
  });
});
afterAll(() => rdap.close());
beforeEach(() => {
  process.env.SERVICE_RDAP_BASE_URL = rdap.url;
  delete process.env.SERVICE_RDAP_SERVERS;
  rdap.failWith(null);
});

describe("IP RDAP", () => {
  it("summarises the network, its dates and the nested abuse contact", async () => {
    const s = await getIpRdapOrThrow("8.8.8.8");
    expect(s).toMatchObject({
      handle: "NET-8-8-8-0-2",
      name: "GOGL",
      startAddress: "8.8.8.0",
      endAddress: "8.8.8.255",
      cidrs: ["8.8.8.0/24"],
      country: "US",
      registeredAt: "2023-12-28T22:24:33.000Z",
      lastChangedAt: "2023-12-28T22:24:56.000Z",
      abuseContact: { name: "Abuse", email: "network-abuse@google.com", phone: "+1-650-253-0000" },
      registrant: { name: "Google LLC", country: "US" },
    });
    // The registry comes from the IANA bootstrap even when the query goes to a configured server.
    expect(s.source).toMatchObject({ registry: "ARIN", rdapServer: rdap.url, url: `${rdap.url}ip/8.8.8.8` });
    expect(s.source.bootstrap?.name).toBe("rdap-bootstrap-ipv4");
  });

  it("an address the registry does not know is 404 NOT_FOUND", async () => {
    await expect(getIpRdapOrThrow("8.8.4.4")).rejects.toMatchObject({ appCode: "NOT_FOUND", status: 404 });
  });

  it("private space is not found without asking any registry", async () => {
    const before = rdap.requests.length;
    const r = await lookupIpRdap("10.1.2.3");
    expect(r.status).toBe("not_found");
    expect(rdap.requests.length).toBe(before);
  });

  it("a registry answering 500 is 503 UPSTREAM_UNAVAILABLE", async () => {
    rdap.failWith(500);
    await expect(getIpRdapOrThrow("8.8.8.8")).rejects.toMatchObject({ appCode: "UPSTREAM_UNAVAILABLE", status: 503 });
  });

  it("an unreachable registry is 503 UPSTREAM_UNAVAILABLE", async () => {
    process.env.SERVICE_RDAP_BASE_URL = "http://127.0.0.1:9/";
    await expect(getIpRdapOrThrow("8.8.8.8")).rejects.toMatchObject({ appCode: "UPSTREAM_UNAVAILABLE" });
  });

  it("a per-registry override replaces only that registry's server", () => {
    delete process.env.SERVICE_RDAP_BASE_URL;
    process.env.SERVICE_RDAP_SERVERS = `arin=${rdap.url}`;
    expect(findRdapServer({ kind: "ip", address: "8.8.8.8" })?.baseUrl).toBe(rdap.url);
    expect(findRdapServer({ kind: "ip", address: "193.0.6.139" })).toMatchObject({
      registry: "RIPE NCC",
      baseUrl: "https://rdap.db.ripe.net/",
    });
  });
});

describe("domain RDAP", () => {
  it("summarises registrar, status, events, name servers and abuse contact", async () => {
    const s = await getDomainRdapOrThrow("example.com");
    expect(s).toMatchObject({
      domain: "example.com",
      ldhName: "example.com",
      registrar: {
        name: "RESERVED-Internet Assigned Numbers Authority",
        ianaId: "376",
        abuseEmail: "abuse@iana.org",
        abusePhone: "+1.3108239358",
      },
      status: ["client delete prohibited", "client transfer prohibited"],
      registeredAt: "1995-08-14T04:00:00.000Z",
      expiresAt: "2026-08-13T04:00:00.000Z",
      nameservers: ["a.iana-servers.net", "b.iana-servers.net"],
      dnssecSigned: true,
      abuseContact: { email: "abuse@iana.org" },
    });
    expect(s.ageDays).toBeGreaterThan(11_000);
    expect(s.source.registry).toBe("rdap.verisign.com");
  });

  it("looks up the registrable domain of a host name", async () => {
    const s = await getDomainRdapOrThrow("www.shop.example.co.uk");
    expect(s.domain).toBe("example.co.uk");
    expect(rdap.requests).toContain("domain/example.co.uk");
  });

  it("a domain the registry does not hold is 404 DOMAIN_NOT_FOUND", async () => {
    await expect(getDomainRdapOrThrow("no-such-name-here.com")).rejects.toMatchObject({
      appCode: "DOMAIN_NOT_FOUND",
      status: 404,
    });
  });

  it("an unreachable registry's reason is said in words, without the system's error or the server's address", async () => {
    // The dashboard shows this reason in a domain's answer (walk: "RDAP server unreachable (getaddrinfo ENOTFOUND
    // rdap.verisign.com)"); an operator's own RDAP server address (SERVICE_RDAP_BASE_URL) is no one else's business.
    process.env.SERVICE_RDAP_BASE_URL = "http://127.0.0.1:9/";
    try {
      const r = await getDomainRdap("example.com");
      expect(r.status).toBe("unavailable");
      const reason = (r as { reason: string }).reason;
      expect(reason).toMatch(/RDAP server could not be reached$/);
      expect(reason).not.toMatch(/ECONN|getaddrinfo|127\.0\.0\.1|fetch failed/);
      await expect(getDomainRdapOrThrow("example.com")).rejects.toThrow(/RDAP server could not be reached\.$/);
    } finally {
      process.env.SERVICE_RDAP_BASE_URL = rdap.url;
    }
  });

  it("an unavailable registry gives a typed outcome for callers that degrade, and 503 for the route", async () => {
    rdap.failWith(503);
    const r = await getDomainRdap("example.com");
    expect(r.status).toBe("unavailable");
    await expect(getDomainRdapOrThrow("example.com")).rejects.toMatchObject({ appCode: "UPSTREAM_UNAVAILABLE" });
  });
});
