import { describe, expect, it } from "vitest";
import { cloudflareFeed, digitalOceanFeed } from "../../server/feeds/definitions/cloud";
import { publicSuffixFeed } from "../../server/feeds/definitions/public-suffix";
import { rdapBootstrapFeeds } from "../../server/feeds/definitions/rdap-bootstrap";
import { spamhausAsnDropFeed, spamhausDropFeed } from "../../server/feeds/definitions/spamhaus";
import { IpRangeSet, parseCidr } from "../../server/feeds/ip-range-set";
import { splitPublicSuffix } from "../../server/feeds/public-suffix";

const buf = (s: string) => Buffer.from(s);

describe("feed parsers", () => {
  it("Spamhaus DROP reads the legacy text format with its date", () => {
    const p = spamhausDropFeed.parse(buf("; Spamhaus DROP List\n; Last-Modified: Tue, 03 Nov 2026 10:00:00 GMT\n1.10.16.0/20 ; SBL256894\n"));
    expect(p.count).toBe(1);
    expect(p.version).toBe("2026-11-03T10:00:00.000Z");
    expect(p.data.lookup("1.10.20.1")).toEqual({ cidr: "1.10.16.0/20", sblId: "SBL256894" });
    expect(p.data.lookup("1.10.32.1")).toBeNull();
  });

  it("Spamhaus ASN-DROP reads JSON lines", () => {
    const p = spamhausAsnDropFeed.parse(buf('{"asn":64500,"rir":"ripencc","domain":"bad.example","cc":"ZZ","asname":"BAD-AS"}\n{"type":"metadata","timestamp":1790000000}\n'));
    expect(p.data.get(64500)).toEqual({ asn: 64500, name: "BAD-AS", country: "ZZ" });
  });

  it("a DROP payload with a non-CIDR entry is rejected", () => {
    expect(() => spamhausDropFeed.parse(buf('{"cidr":"not-a-net"}\n'))).toThrow(/not a CIDR/);
  });

  it("Cloudflare ranges parse from the API, from plain lines and from the shipped array", () => {
    const api = cloudflareFeed.parse(buf(JSON.stringify({ result: { ipv4_cidrs: ["173.245.48.0/20"], ipv6_cidrs: ["2400:cb00::/32"], etag: "abc" }, success: true })));
    expect(api).toMatchObject({ count: 2, version: "abc" });
    expect(api.data.lookup("2400:cb00::1")?.provider).toBe("Cloudflare");
    expect(cloudflareFeed.parse(buf("173.245.48.0/20\n103.21.244.0/22\n")).count).toBe(2);
    expect(cloudflareFeed.parse(buf('["104.16.0.0/13"]')).data.lookup("104.17.1.1")?.provider).toBe("Cloudflare");
  });

  it("DigitalOcean's geofeed CSV labels ranges with country and region", () => {
    const p = digitalOceanFeed.parse(buf("5.101.96.0/21,NL,NL-NH,Amsterdam,1098\n2a03:b0c0::/32,NL,NL-NH,Amsterdam,1098\n"));
    expect(p.data.lookup("5.101.100.1")).toEqual({ provider: "DigitalOcean", region: "NL-NL-NH", service: null });
  });

  it("an RDAP bootstrap file without services is rejected", () => {
    expect(() => rdapBootstrapFeeds.dns.parse(buf('{"version":"1.0"}'))).toThrow(/missing services/);
  });

  it("the Public Suffix List format, with comments and wildcards, parses", () => {
    const p = publicSuffixFeed.parse(buf("// ===BEGIN ICANN DOMAINS===\ncom\n*.ck\n!www.ck\n"));
    expect(p.data.rules.has("com")).toBe(true);
    expect(p.data.wildcards.has("ck")).toBe(true);
    expect(p.data.exceptions.has("www.ck")).toBe(true);
  });
});

describe("IP range sets", () => {
  it("return the most specific of nested ranges, for IPv4 and IPv6", () => {
    const set = IpRangeSet.build(
      ["10.0.0.0/8|wide", "10.1.0.0/16|mid", "10.1.2.0/24|narrow", "2001:db8::/32|v6"].map((s) => {
        const [cidr, label] = s.split("|");
        return { range: parseCidr(cidr!)!, label: label! };
      }),
    );
    expect(set.lookup("10.1.2.3")).toBe("narrow");
    expect(set.lookup("10.1.3.3")).toBe("mid");
    expect(set.lookup("10.200.0.1")).toBe("wide");
    expect(set.lookup("11.0.0.1")).toBeNull();
    expect(set.lookup("2001:db8:ffff::1")).toBe("v6");
    expect(set.lookup("2001:db9::1")).toBeNull();
  });
});

describe("public suffixes (shipped list)", () => {
  it.each([
    ["www.example.co.uk", "example.co.uk"],
    ["a.b.example.com", "example.com"],
    ["user.github.io", "user.github.io"],
    ["co.uk", null],
    ["münchen.de", "xn--mnchen-3ya.de"],
  ])("%s has registrable domain %s", (host, expected) => {
    expect(splitPublicSuffix(host)?.registrableDomain ?? null).toBe(expected);
  });
});
