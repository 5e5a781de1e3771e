import { describe, expect, it } from "vitest";
import { classifyIp, ipInCidr, isPubliclyRoutable, parseHostAddressLoose, parseIpStrict } from "../../server/net/ip";
import { ipv6ToBigInt, ipv6ToGroups } from "../../server/net/ip-parse";

describe("parseIpStrict", () => {
  it.each([
    ["8.8.8.8", 4, "8.8.8.8"],
    ["0.0.0.0", 4, "0.0.0.0"],
    ["255.255.255.255", 4, "255.255.255.255"],
    ["2001:DB8::1", 6, "2001:db8::1"],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", 6, "2001:db8::1"],
    ["2001:db8:0:0:1:0:0:1", 6, "2001:db8::1:0:0:1"],
    ["2001:db8:0:1:1:1:1:1", 6, "2001:db8:0:1:1:1:1:1"],
    ["::", 6, "::"],
    ["::1", 6, "::1"],
    ["fe80::", 6, "fe80::"],
    ["::ffff:7f00:1", 6, "::ffff:127.0.0.1"],
    ["::FFFF:192.0.2.1", 6, "::ffff:192.0.2.1"],
    ["64:ff9b::192.0.2.33", 6, "64:ff9b::c000:221"],
  ])("accepts %s as IPv%i %s", (input, version, address) => {
    expect(parseIpStrict(input)).toEqual({ version, address });
  });

  it.each([
    "",
    "1.2.3",
    "1.2.3.4.5",
    "256.1.1.1",
    "01.2.3.4",
    "0x7f.0.0.1",
    "2130706433",
    " 1.2.3.4",
    "1.2.3.4 ",
    "[::1]",
    "fe80::1%eth0",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "12345::",
    ":::",
    "1:2:3:4:5:6:7:8::",
    "::ffff:1.2.3",
    "example.com",
    "g::1",
  ])("rejects %j", (input) => {
    expect(parseIpStrict(input)).toBeNull();
  });
});

describe("parseHostAddressLoose", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0177.0.0.01", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["10.1.258", "10.1.1.2"],
    ["0", "0.0.0.0"],
    ["0x", "0.0.0.0"],
    ["127.0.0.1.", "127.0.0.1"],
    ["[::1]", "::1"],
    ["[::ffff:127.0.0.1]", "::ffff:127.0.0.1"],
    ["[0:0:0:0:0:ffff:7f00:1]", "::ffff:127.0.0.1"],
    ["fe80::1%25eth0", "fe80::1"],
  ])("reads %s as %s", (input, address) => {
    expect(parseHostAddressLoose(input)).toBe(address);
  });

  it.each(["example.com", "1.2.3.4.5", "256.256.256.256", "4294967296", "08.0.0.1", "0xg.1", "", "a.1", "1..2"])(
    "treats %j as not an address",
    (input) => {
      expect(parseHostAddressLoose(input)).toBeNull();
    },
  );
});

describe("classifyIp", () => {
  it.each([
    ["8.8.8.8", "public", null],
    ["10.1.2.3", "private", "10.0.0.0/8"],
    ["172.31.255.255", "private", "172.16.0.0/12"],
    ["172.32.0.1", "public", null],
    ["192.168.1.1", "private", "192.168.0.0/16"],
    ["100.64.0.1", "carrier_grade_nat", "100.64.0.0/10"],
    ["127.0.0.1", "loopback", "127.0.0.0/8"],
    ["169.254.169.254", "link_local", "169.254.0.0/16"],
    ["0.0.0.0", "unspecified", "0.0.0.0/32"],
    ["0.1.2.3", "reserved", "0.0.0.0/8"],
    ["224.0.0.1", "multicast", "224.0.0.0/4"],
    ["255.255.255.255", "broadcast", "255.255.255.255/32"],
    ["250.1.1.1", "reserved", "240.0.0.0/4"],
    ["192.0.2.7", "documentation", "192.0.2.0/24"],
    ["198.19.0.1", "benchmarking", "198.18.0.0/15"],
    ["192.0.0.9", "public", "192.0.0.9/32"],
    ["192.0.0.100", "reserved", "192.0.0.0/24"],
    ["2606:4700::1111", "public", null],
    ["::1", "loopback", "::1/128"],
    ["::", "unspecified", "::/128"],
    ["fd00:ec2::254", "unique_local", "fc00::/7"],
    ["fe80::1", "link_local", "fe80::/10"],
    ["ff02::1", "multicast", "ff00::/8"],
    ["2001:db8::1", "documentation", "2001:db8::/32"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo", "2001::/32"],
    ["::ffff:8.8.8.8", "ipv4_mapped", "::ffff:0:0/96"],
    ["::ffff:127.0.0.1", "loopback", "127.0.0.0/8"],
    ["::ffff:a9fe:a9fe", "link_local", "169.254.0.0/16"],
    ["64:ff9b::8.8.8.8", "nat64", "64:ff9b::/96"],
    ["64:ff9b::10.0.0.1", "private", "10.0.0.0/8"],
    ["2002:c0a8:0101::1", "private", "192.168.0.0/16"],
    ["2002:0808:0808::1", "6to4", "2002::/16"],
    ["4000::1", "reserved", null],
  ])("%s is %s (%s)", (address, scope, range) => {
    const c = classifyIp(address);
    expect(c.scope).toBe(scope);
    expect(c.range).toBe(range);
  });

  it("explains an IPv4-mapped private address by its embedded address", () => {
    expect(classifyIp("::ffff:10.0.0.1").reason).toMatch(
      /IPv4-mapped address \(RFC 4291\) of 10\.0\.0\.1: Private-use/,
    );
  });

  it("never calls garbage public", () => {
    expect(classifyIp("not-an-ip")).toEqual({ scope: "reserved", range: null, reason: "Not a valid IP address" });
    expect(isPubliclyRoutable("not-an-ip")).toBe(false);
  });

  it("classifies loose spellings by the address they reach", () => {
    expect(classifyIp("0x7f.1").scope).toBe("loopback");
    expect(classifyIp("2130706433").scope).toBe("loopback");
  });

  it("returns the same object for repeated lookups (no per-call allocation)", () => {
    expect(classifyIp("10.0.0.1")).toBe(classifyIp("10.9.9.9"));
  });
});

describe("isPubliclyRoutable", () => {
  it.each([
    ["8.8.8.8", true],
    ["1.1.1.1", true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
    ["64:ff9b::8.8.8.8", true],
    ["127.0.0.1", false],
    ["::ffff:127.0.0.1", false],
    ["169.254.169.254", false],
    ["fd00:ec2::254", false],
    ["100.100.100.200", false],
    ["192.88.99.1", false],
    ["2002:0808:0808::1", false],
    ["64:ff9b:1::1", false],
  ])("%s -> %s", (address, routable) => {
    expect(isPubliclyRoutable(address)).toBe(routable);
  });
});

describe("ipInCidr", () => {
  it("matches IPv4 and IPv6 ranges", () => {
    expect(ipInCidr("104.16.1.1", "104.16.0.0/13")).toBe(true);
    expect(ipInCidr("104.24.1.1", "104.16.0.0/13")).toBe(false);
    expect(ipInCidr("2606:4700:10::1", "2606:4700::/32")).toBe(true);
    expect(ipInCidr("2606:4701::1", "2606:4700::/32")).toBe(false);
    expect(ipInCidr("1.2.3.4", "2606:4700::/32")).toBe(false);
    expect(ipInCidr("1.2.3.4", "0.0.0.0/0")).toBe(true);
  });
});

describe("ipv6ToBigInt", () => {
  // The value as the 32 hexadecimal digits of the eight groups: what the word-wise arithmetic must give.
  const byDigits = (a: string) =>
    BigInt(
      `0x${ipv6ToGroups(a)!
        .map((g) => g.toString(16).padStart(4, "0"))
        .join("")}`,
    );
  it.each([
    "::",
    "::1",
    "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    "8000::",
    "8000:0:0:0:8000:0:0:8000",
    "2001:db8::ffff:ffff",
    "::ffff:192.0.2.1",
    "fe80::1:2:3:4",
    "2a00:1450:4001:80b::200e",
  ])("reads %s as its 128-bit number, the high bit of each word included", (a) => {
    expect(ipv6ToBigInt(a)).toBe(byDigits(a));
  });
  it("orders addresses as numbers and refuses what is not an address", () => {
    expect(ipv6ToBigInt("2001:db8::1")! < ipv6ToBigInt("2001:db8::1:0")!).toBe(true);
    expect(ipv6ToBigInt("ffff::")! > ipv6ToBigInt("7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff")!).toBe(true);
    expect(ipv6ToBigInt("2001:db8::g")).toBeNull();
    expect(ipv6ToBigInt("1.2.3.4")).toBeNull();
  });
});
