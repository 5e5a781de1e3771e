import { describe, expect, it } from "vitest";
import { cloudflareFeed, digitalOceanFeed } from "../../server/feeds/definitions/cloud";
import { EVIDENCE_FEEDS } from "../../server/feeds/definitions/evidence";
import { publicSuffixFeed } from "../../server/feeds/definitions/public-suffix";
import { rdapBootstrapFeeds } from "../../server/feeds/definitions/rdap-bootstrap";
import { spamhausAsnDropFeed, spamhausDropFeed } from "../../server/feeds/definitions/spamhaus";
import { IpRangeSet, parseCidr } from "../../server/feeds/ip-range-set";
import { splitPublicSuffix } from "../../server/feeds/public-suffix";

const buf = (s: string) => Buffer.from(s);

describe("feed parsers", () => {
  it("Spamhaus DROP reads the legacy text format with its date", () => {
    const p = spamhausDropFeed.parse(
      buf("; Spamhaus DROP List\n; Last-Modified: Tue, 03 Nov 2026 10:00:00 GMT\n1.10.16.0/20 ; SBL256894\n"),
    );
    expect(p.count).toBe(1);
    expect(p.version).toBe("2026-11-03T10:00:00.000Z");
    expect(p.data.lookup("1.10.20.1")).toEqual({ cidr: "1.10.16.0/20", sblId: "SBL256894" });
    expect(p.data.lookup("1.10.32.1")).toBeNull();
  });

  it("Spamhaus ASN-DROP reads JSON lines", () => {
    const p = spamhausAsnDropFeed.parse(
      buf(
        '{"asn":64500,"rir":"ripencc","domain":"bad.example","cc":"ZZ","asname":"BAD-AS"}\n{"type":"metadata","timestamp":1790000000}\n',
      ),
    );
    expect(p.data.get(64500)).toEqual({ asn: 64500, name: "BAD-AS", country: "ZZ" });
  });

  it("a DROP payload with a non-CIDR entry is rejected", () => {
    expect(() => spamhausDropFeed.parse(buf('{"cidr":"not-a-net"}\n'))).toThrow(/not a CIDR/);
  });

  it("Cloudflare ranges parse from the API, from plain lines and from a JSON array", () => {
    const api = cloudflareFeed.parse(
      buf(
        JSON.stringify({
          result: { ipv4_cidrs: ["173.245.48.0/20"], ipv6_cidrs: ["2400:cb00::/32"], etag: "abc" },
          success: true,
        }),
      ),
    );
    expect(api).toMatchObject({ count: 2, version: "abc" });
    expect(api.data.entries.map((e) => e.cidr)).toEqual(["173.245.48.0/20", "2400:cb00::/32"]);
    expect(cloudflareFeed.parse(buf("173.245.48.0/20\n103.21.244.0/22\n")).count).toBe(2);
    expect(cloudflareFeed.parse(buf('["104.16.0.0/13"]')).data.entries[0]).toMatchObject({
      cidr: "104.16.0.0/13",
      range: { version: 4 },
    });
  });

  it("geofeed and Apple's egress CSV take the CIDR from the first field", () => {
    const p = digitalOceanFeed.parse(
      buf("# DigitalOcean geofeed\n5.101.96.0/21,NL,NL-NH,Amsterdam,1098\n2a03:b0c0::/32,NL,NL-NH,Amsterdam,1098\n"),
    );
    expect(p.data.entries.map((e) => e.cidr)).toEqual(["5.101.96.0/21", "2a03:b0c0::/32"]);
    const relay = EVIDENCE_FEEDS.find((f) => f.name === "relay-icloud-private-relay")!;
    expect(
      relay.parse(buf("172.224.226.0/27,GB,GB-EN,London,\n2a02:26f7:b3c0:4000::/64,GB,GB-EN,London,\n")).count,
    ).toBe(2);
  });

  it("JSON lists are read wherever their CIDRs sit, skipping a VPN's entry addresses", () => {
    const bot = EVIDENCE_FEEDS.find((f) => f.name === "crawler-googlebot")!;
    const g = bot.parse(
      buf(
        JSON.stringify({
          creationTime: "2026-11-20T00:00:00",
          prefixes: [{ ipv4Prefix: "66.249.64.0/27" }, { ipv6Prefix: "2001:4860:4801:10::/64" }],
        }),
      ),
    );
    expect(g.data.entries.map((e) => e.cidr)).toEqual(["66.249.64.0/27", "2001:4860:4801:10::/64"]);
    const proton = EVIDENCE_FEEDS.find((f) => f.name === "vpn-protonvpn")!;
    const p = proton.parse(
      buf(
        JSON.stringify({
          LogicalServers: [
            {
              Name: "CH#1",
              Servers: [{ EntryIP: "185.159.157.1", ExitIP: "185.159.157.9", Domain: "node-ch-01.protonvpn.net" }],
            },
          ],
        }),
      ),
    );
    expect(p.data.entries.map((e) => e.cidr)).toEqual(["185.159.157.9"]);
  });

  it("a range list with a line that is not a CIDR is refused", () => {
    expect(() => digitalOceanFeed.parse(buf("5.101.96.0/21\n<html>moved</html>\n"))).toThrow(/not a CIDR at line 2/);
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
