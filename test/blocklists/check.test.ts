import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { checkBlocklists } from "../../server/blocklists/check";
import { parseTarget } from "../../server/blocklists/targets";
import { interpretCode, zoneInfo } from "../../server/blocklists/zones";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";

const A = (ip: string) => ({ type: "A" as const, data: ip, ttl: 60 });

let dns: FakeDnsServer;
beforeAll(async () => {
  dns = await startFakeDnsServer({
    records: {
      // 127.0.0.2 is every list's test entry.
      "2.0.0.127.zen.spamhaus.org": [
        A("127.0.0.2"),
        A("127.0.0.4"),
        { type: "TXT", data: ["https://check.spamhaus.org/query/ip/127.0.0.2"] },
      ],
      "2.0.0.127.bl.spamcop.net": [A("127.0.0.2")],
      "2.0.0.127.b.barracudacentral.org": [A("127.0.0.2")],
      // 198.51.100.7: Spamhaus refuses (public resolver), SpamCop has no listing, Barracuda fails.
      "7.100.51.198.zen.spamhaus.org": [A("127.255.255.254")],
      // 203.0.113.9: a resolver that rewrites NXDOMAIN to an advertising address.
      "9.113.0.203.bl.spamcop.net": [A("93.184.216.34")],
      // IPv6 2001:db8::2 on zen (nibble format).
      "2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.zen.spamhaus.org": [A("127.0.0.3")],
      "spam-domain.test.dbl.spamhaus.org": [A("127.0.1.2")],
      "spam-domain.test.multi.surbl.org": [A("127.0.0.80")],
      "ip-as-domain.test.dbl.spamhaus.org": [A("127.0.1.255")],
      "blocked.test.multi.surbl.org": [A("127.0.0.1")],
      "evil.co.uk.dbl.spamhaus.org": [A("127.0.1.4")],
    },
  });
  process.env.SERVICE_DNS_SERVERS = dns.address;
  dns.setFailure("7.100.51.198.b.barracudacentral.org", "SERVFAIL");
});
afterAll(() => dns.close());
afterEach(() => {
  delete process.env.SERVICE_DNSBL_IP_ZONES;
  delete process.env.SERVICE_DNSBL_DOMAIN_ZONES;
  delete process.env.SERVICE_DNSBL_TIMEOUT_MS;
  delete process.env.SERVICE_DNSBL_DNS_SERVERS;
  dns.down = false;
});

describe("return codes", () => {
  it.each([
    ["zen.spamhaus.org", "127.0.0.2", "listed", /SBL/],
    ["zen.spamhaus.org", "127.0.0.11", "listed", /PBL/],
    ["zen.spamhaus.org", "127.255.255.254", "refused", /public or open resolver/],
    ["zen.spamhaus.org", "127.255.255.255", "refused", /excessive/],
    ["key123.zen.dq.spamhaus.net", "127.255.255.252", "refused", /Typing error/],
    ["dbl.spamhaus.org", "127.0.1.255", "refused", /IP addresses are not accepted/],
    ["multi.surbl.org", "127.0.0.1", "refused", /blocks this resolver/],
    ["multi.surbl.org", "127.0.0.24", "listed", /PH: phishing; MW: malware/],
    ["bl.spamcop.net", "10.0.0.1", "invalid", /outside 127.0.0.0\/8/],
    ["unknown.example-bl.test", "127.0.0.9", "listed", /return code 127.0.0.9/],
  ])("%s answers %s: %s", (zone, code, kind, meaning) => {
    const v = interpretCode(zoneInfo(zone), code);
    expect(v.kind).toBe(kind);
    expect(v.meaning).toMatch(meaning);
  });
});

describe("checkBlocklists", () => {
  it("reports a listed address per list with return codes, meanings and the list's TXT", async () => {
    const r = await checkBlocklists(["127.0.0.2"]);
    const t = r.results[0];
    expect(t).toMatchObject({ target: "127.0.0.2", kind: "ipv4", status: "listed" });
    expect(t.listedOn).toEqual(["zen.spamhaus.org", "bl.spamcop.net", "b.barracudacentral.org"]);
    const zen = t.lists.find((l) => l.zone === "zen.spamhaus.org")!;
    expect(zen.status).toBe("listed");
    expect(zen.operator).toBe("Spamhaus");
    expect(zen.queried).toEqual(["2.0.0.127.zen.spamhaus.org"]);
    expect(zen.returnCodes).toEqual([
      { code: "127.0.0.2", meaning: expect.stringMatching(/^SBL/) },
      { code: "127.0.0.4", meaning: expect.stringMatching(/^XBL/) },
    ]);
    expect(zen.detail).toBe("https://check.spamhaus.org/query/ip/127.0.0.2");
    expect(r.sources).toEqual({
      resolver: { servers: [dns.address] },
      ipZones: ["zen.spamhaus.org", "bl.spamcop.net", "b.barracudacentral.org"],
      domainZones: ["dbl.spamhaus.org", "multi.surbl.org"],
    });
    expect(Date.parse(r.checkedAt)).not.toBeNaN();
  });

  it("never reports a refusal, a failure or a rewritten answer as listed", async () => {
    const r = await checkBlocklists(["198.51.100.7", "203.0.113.9"]);
    const [refusedCase, hijacked] = r.results;
    expect(refusedCase.status).toBe("incomplete");
    expect(refusedCase.listedOn).toEqual([]);
    expect(Object.fromEntries(refusedCase.lists.map((l) => [l.zone, l.status]))).toEqual({
      "zen.spamhaus.org": "refused",
      "bl.spamcop.net": "not_listed",
      "b.barracudacentral.org": "unavailable",
    });
    expect(refusedCase.lists[0].detail).toMatch(/public or open resolver/);
    expect(hijacked.lists.find((l) => l.zone === "bl.spamcop.net")).toMatchObject({
      status: "unavailable",
      detail: expect.stringMatching(/rewrites answers/),
    });
    expect(r.summary).toEqual({ targets: 2, listed: 0, incomplete: 2 });
  });

  it("reports a clean address as not listed on every list", async () => {
    const r = await checkBlocklists(["192.0.2.1"]);
    expect(r.results[0].status).toBe("not_listed");
    expect(r.results[0].lists.every((l) => l.status === "not_listed" && l.returnCodes.length === 0)).toBe(true);
  });

  it("sends a special-use name to no list: every list skipped with the reason, not listed, no query made", async () => {
    const before = dns.queries.length;
    const r = await checkBlocklists(["build.corp.invalid", "Vault.Alt"]);
    expect(dns.queries.slice(before)).toEqual([]);
    for (const t of r.results) {
      expect(t).toMatchObject({ kind: "domain", status: "not_listed", listedOn: [], lists: [] });
      expect(t.skipped.map((s) => s.zone)).toEqual(["dbl.spamhaus.org", "multi.surbl.org"]);
      for (const s of t.skipped) expect(s.reason).toMatch(/special-use name.*sent to no list/);
    }
    expect(r.results[1].skipped[0]!.reason).toMatch(/^vault\.alt is under \.alt/);
    expect(r.summary).toEqual({ targets: 2, listed: 0, incomplete: 0 });
    // A name outside the special-use list in force is still asked (the tests narrow that list, since the fake DNS
    // serves .test; under the shipped default .test is special-use too).
    const listed = await checkBlocklists(["spam-domain.test"]);
    expect(listed.results[0]!.status).toBe("listed");
  });

  it("checks IPv6 only on lists that carry IPv6, in nibble format", async () => {
    const r = await checkBlocklists(["2001:DB8::2"]);
    const t = r.results[0];
    expect(t.normalized).toBe("2001:db8::2");
    expect(t.lists.map((l) => l.zone)).toEqual(["zen.spamhaus.org"]);
    expect(t.lists[0].returnCodes[0].meaning).toMatch(/CSS/);
    expect(t.skipped.map((s) => s.zone)).toEqual(["bl.spamcop.net", "b.barracudacentral.org"]);
  });

  it("checks domains on the domain lists, as given and as their registrable domain", async () => {
    const r = await checkBlocklists(["spam-domain.test", "www.evil.co.uk", "ip-as-domain.test", "blocked.test"]);
    const [spam, sub, refusedDbl, refusedSurbl] = r.results;
    expect(spam.status).toBe("listed");
    expect(spam.lists.find((l) => l.zone === "multi.surbl.org")?.returnCodes[0]).toEqual({
      code: "127.0.0.80",
      meaning: "MW: malware; ABUSE: spam and other abuse",
    });
    expect(sub.lists.find((l) => l.zone === "dbl.spamhaus.org")).toMatchObject({
      status: "listed",
      queried: ["www.evil.co.uk.dbl.spamhaus.org", "evil.co.uk.dbl.spamhaus.org"],
      returnCodes: [{ code: "127.0.1.4", meaning: "Phishing domain" }],
    });
    expect(refusedDbl.lists.find((l) => l.zone === "dbl.spamhaus.org")?.status).toBe("refused");
    expect(refusedSurbl.lists.find((l) => l.zone === "multi.surbl.org")?.status).toBe("refused");
    expect(refusedSurbl.status).toBe("incomplete");
  });

  it("uses the configured zones", async () => {
    process.env.SERVICE_DNSBL_IP_ZONES = "bl.spamcop.net, zen.spamhaus.org";
    process.env.SERVICE_DNSBL_DOMAIN_ZONES = "dbl.spamhaus.org";
    const r = await checkBlocklists(["127.0.0.2", "spam-domain.test"]);
    expect(r.results[0].lists.map((l) => l.zone)).toEqual(["bl.spamcop.net", "zen.spamhaus.org"]);
    expect(r.results[1].lists.map((l) => l.zone)).toEqual(["dbl.spamhaus.org"]);
    expect(r.sources.ipZones).toEqual(["bl.spamcop.net", "zen.spamhaus.org"]);
  });

  it("answers within the bounded timeout when the resolver is down, every list unavailable", async () => {
    process.env.SERVICE_DNSBL_TIMEOUT_MS = "200";
    dns.down = true;
    const t0 = Date.now();
    const r = await checkBlocklists(["127.0.0.2", "192.0.2.1", "spam-domain.test"]);
    expect(Date.now() - t0).toBeLessThan(2000);
    for (const t of r.results) {
      expect(t.status).toBe("incomplete");
      expect(t.lists.every((l) => l.status === "unavailable")).toBe(true);
    }
  });

  it("queries blocklists through SERVICE_DNSBL_DNS_SERVERS when set", async () => {
    const other = await startFakeDnsServer({ records: { "2.0.0.127.bl.spamcop.net": [A("127.0.0.2")] } });
    try {
      process.env.SERVICE_DNSBL_DNS_SERVERS = other.address;
      process.env.SERVICE_DNSBL_IP_ZONES = "bl.spamcop.net";
      const r = await checkBlocklists(["127.0.0.2"]);
      expect(r.results[0].status).toBe("listed");
      expect(r.sources.resolver.servers).toEqual([other.address]);
      expect(other.queries.map((q) => q.name)).toContain("2.0.0.127.bl.spamcop.net");
    } finally {
      await other.close();
    }
  });
});

describe("targets", () => {
  it.each(["", "not a host", "localhost", "1.2.3", "999.1.1.1", "http://example.com", "_dmarc.example.com"])(
    "refuses %j",
    (t) => {
      expect("error" in parseTarget(t)).toBe(true);
    },
  );
});
