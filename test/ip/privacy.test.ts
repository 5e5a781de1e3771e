// The privacy classification from the shipped evidence snapshots: addresses drawn from each list (IPv4 and IPv6)
// with the class and provider they must get, addresses in no list, overlapping lists, and the same object on
// /ip/{ip}, /ip/{ip}/reputation through the REST API.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "../../server/db/client";
import { resetFeedCache } from "../../server/feeds/loader";
import { classifyPrivacy, getPrivacyIndex, privacyIndexInput } from "../../server/ip/privacy";
import { PrivacyIndex } from "../../server/ip/privacy-index";
import { getIpReputation, warmIpFeeds } from "../../server/ip/reputation";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;

beforeAll(async () => {
  // The weights depend on the shipped lists' age (AGE_SCHEDULES): pinned to 2026-11-30, 100 days after the 2026-08-22
  // snapshots (only Date is faked, and it still advances).
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: new Date("2026-11-30T06:00:00Z") });
  app = await createTestApp();
  await (await getDb()).feedSnapshot.deleteMany({});
  resetFeedCache();
  await warmIpFeeds(); // the routing tables and the evidence index: seconds, outside the tests' timeouts
}, 180_000);
afterAll(() => {
  vi.useRealTimers();
});
afterAll(() => resetFeedCache());

type Flag = "tor" | "vpn" | "relay" | "hosting" | "cdn" | "crawler" | "monitor";
// [address, the flag it must raise (or null for platform egress), the service named, the feed of the first match, its range]
const TABLE: [string, Flag, string, string, string][] = [
  ["185.220.101.1", "tor", "Tor exit relay", "tor-exits", "185.220.101.1/32"],
  ["2.58.56.35", "tor", "Tor exit relay", "tor-exits", "2.58.56.35/32"],
  ["2.58.241.66", "vpn", "Proton VPN", "vpn-protonvpn", "2.58.241.66/32"],
  ["146.70.174.194", "vpn", "Proton VPN", "vpn-protonvpn", "146.70.174.194/32"],
  ["104.28.28.1", "relay", "iCloud Private Relay", "relay-icloud-private-relay", "104.28.28.0/26"],
  ["2a02:26f7:b00a:4000::1", "relay", "iCloud Private Relay", "relay-icloud-private-relay", "2a02:26f7:b00a:4000::/64"],
  ["66.249.72.1", "crawler", "Googlebot", "crawler-googlebot", "66.249.72.0/22"],
  ["2001:4860:4801:2::1", "crawler", "Googlebot", "crawler-googlebot", "2001:4860:4801:2::/64"],
  ["40.77.178.1", "crawler", "Bingbot", "crawler-bing", "40.77.178.0/23"],
  ["4.144.182.50", "crawler", "DuckDuckBot", "crawler-duckduckbot", "4.144.182.50/32"],
  ["51.116.2.81", "crawler", "OpenAI crawlers", "crawler-openai", "51.116.2.80/28"],
  ["18.97.21.1", "crawler", "PerplexityBot", "crawler-perplexity", "18.97.21.0/30"],
  ["179.50.12.212", "monitor", "Pingdom", "monitor-pingdom", "179.50.12.212/32"],
  ["2a0d:3002:2100:a00c:5::4065", "monitor", "Pingdom", "monitor-pingdom", "2a0d:3002:2100:a00c:5::4065/128"],
  ["45.63.121.159", "monitor", "StatusCake", "monitor-statuscake", "45.63.121.159/32"],
  ["1.178.1.1", "hosting", "Amazon Web Services", "cloud-aws", "1.178.1.0/24"],
  ["2a05:d018::1", "hosting", "Amazon Web Services", "cloud-aws", "2a05:d018::/35"],
  // The shipped snapshot is Google's goog.json, every Google range: Google, not "Google Cloud" (google-ranges.test.ts).
  ["136.22.160.1", "hosting", "Google", "cloud-gcp", "136.22.160.0/20"],
  ["2a00:1450::1", "hosting", "Google", "cloud-gcp", "2a00:1450::/32"],
  ["132.245.0.1", "hosting", "Microsoft Azure", "cloud-azure", "132.245.0.0/16"],
  ["2a01:110::1", "hosting", "Microsoft Azure", "cloud-azure", "2a01:110::/31"],
  ["141.253.192.1", "hosting", "Oracle Cloud", "cloud-oracle", "141.253.192.0/19"],
  ["161.35.0.1", "hosting", "DigitalOcean", "cloud-digitalocean", "161.35.0.0/16"],
  ["2a03:b0c0:0:108::1", "hosting", "DigitalOcean", "cloud-digitalocean", "2a03:b0c0:0:108::/64"],
  ["172.105.24.1", "hosting", "Akamai Cloud (Linode)", "cloud-linode", "172.105.24.0/22"],
  ["2a01:7e00::1", "hosting", "Akamai Cloud (Linode)", "cloud-linode", "2a01:7e00::/30"],
  ["144.202.0.1", "hosting", "Vultr", "cloud-vultr", "144.202.0.0/17"],
  ["2a05:f480:1000::1", "hosting", "Vultr", "cloud-vultr", "2a05:f480:1000::/36"],
  ["188.114.96.1", "cdn", "Cloudflare", "cloud-cloudflare", "188.114.96.0/20"],
  ["2a06:98c0::1", "cdn", "Cloudflare", "cloud-cloudflare", "2a06:98c0::/29"],
  ["2a0a:a440::1", "hosting", "GitHub", "platform-github", "2a0a:a440::/29"],
  ["31.13.24.1", "hosting", "Meta (Facebook)", "platform-facebook", "31.13.24.0/21"],
  ["149.154.160.1", "hosting", "Telegram", "platform-telegram", "149.154.160.0/20"],
  ["2a0a:f280::1", "hosting", "Telegram", "platform-telegram", "2a0a:f280::/32"],
  ["192.48.236.1", "hosting", "X (Twitter)", "platform-twitter", "192.48.236.0/23"],
];
const FLAGS: Flag[] = ["tor", "vpn", "relay", "hosting", "cdn", "crawler", "monitor"];
// Exits that also sit in X4BNet's datacenter ranges (a Tor or VPN exit rented from a hosting company) are hosting too.
const ALSO_HOSTING = new Set(["185.220.101.1", "2.58.56.35", "146.70.174.194"]);

describe("privacy classification from the shipped snapshots", () => {
  it.each(TABLE)("%s is %s (%s)", (address, flag, service, feed, range) => {
    const p = classifyPrivacy(address, null);
    for (const f of FLAGS) expect(p[f], f).toBe(f === flag || (f === "hosting" && ALSO_HOSTING.has(address)));
    expect(p.service).toBe(service);
    expect(p.matches[0]).toMatchObject({ feed, range, shadowed: false });
    expect(p.proxy).toBeNull();
    // Shown as it is in the dashboard's Details: said to a user, not to the operator (no "shipped or configured").
    expect(p.proxyReason).toBe(
      "Open proxies are not checked: there is no list of them to check against. VPN exits, Tor exits and private relays are reported separately.",
    );
  });

  // 2001:db8::1 and 192.0.2.1 also stand for provider lists that are not clean: Vultr's geofeed publishes both.
  it.each(["73.162.1.1", "81.2.69.142", "2a02:8108::1", "2001:db8::1", "192.0.2.1", "10.0.0.1"])(
    "%s is in no list: every flag false, no service, no matches",
    (address) => {
      const p = classifyPrivacy(address, null);
      expect(p).toEqual({
        tor: false,
        vpn: false,
        relay: false,
        hosting: false,
        cdn: false,
        crawler: false,
        monitor: false,
        scanner: false,
        proxy: null,
        proxyReason: expect.any(String),
        service: null,
        confidence: null,
        classes: Object.fromEntries(
          ["tor", "vpn", "relay", "hosting", "scanner"].map((c) => [c, expect.objectContaining({ flag: false })]),
        ),
        matches: [],
      });
    },
  );

  // Found sampling the shipped lists on the production server: CIRCL's telescope list of Stretchoid's addresses
  // (MISP stretchoid-nt-scanning) holds 22 addresses inside Bingbot's own published /24s (157.55.39.0, 207.46.13.0,
  // 40.77.167.0, 52.167.144.0), so 52.167.144.58 answered "an internet-wide scanner run by Stretchoid, never a
  // customer" (network.kind scanner, risk medium) though Microsoft publishes it as Bingbot's. A list of addresses seen
  // scanning does not outrank the crawler operator's own list: the scanner match is reported, shadowed.
  it("a crawler's published range outranks a scanner list's address inside it (Stretchoid's in Bingbot's)", async () => {
    for (const ip of ["52.167.144.58", "40.77.167.101", "157.55.39.222", "207.46.13.229"]) {
      const p = classifyPrivacy(ip, null);
      expect(p, ip).toMatchObject({ crawler: true, scanner: false, service: "Bingbot" });
      expect(p.classes.scanner.flag, ip).toBe(false);
      expect(
        p.matches.find((m) => m.kind === "scanner"),
        ip,
      ).toMatchObject({ provider: "Stretchoid", shadowed: true });
      const rep = await getIpReputation(ip);
      expect(rep.network, ip).toMatchObject({ type: "service", kind: "crawler", provider: "Bingbot" });
      expect(
        rep.risk.reasons.map((r) => r.code),
        ip,
      ).not.toContain("scanner");
    }
    // Stretchoid's addresses elsewhere in Azure are still its scanners.
    expect(classifyPrivacy("128.203.200.175", null)).toMatchObject({ scanner: true, service: "Stretchoid" });
  });

  it("overlapping lists are all reported, most specific first; the narrower service shadows the cloud it runs in", () => {
    const bot = classifyPrivacy("66.249.72.1", null);
    expect(bot.matches.map((m) => [m.feed, m.range, m.kind, m.shadowed])).toEqual([
      ["crawler-googlebot", "66.249.72.0/22", "crawler", false],
      ["cloud-gcp", "66.249.64.0/19", "platform", true],
      ["datacenter-x4bnet", "66.249.64.0/19", "hosting", true],
    ]);
    expect(bot).toMatchObject({ crawler: true, hosting: false, service: "Googlebot" });

    const bing = classifyPrivacy("13.66.139.1", null);
    expect(bing.matches.map((m) => m.feed)).toEqual([
      "crawler-bing",
      "platform-github",
      "cloud-azure",
      "datacenter-x4bnet",
    ]);
    expect(bing).toMatchObject({ crawler: true, hosting: false, service: "Bingbot" });

    // The same address on two crawler lists (DuckDuckGo publishes one for each bot): both, in list order.
    expect(classifyPrivacy("4.144.182.50", null).matches.map((m) => m.feed)).toEqual([
      "crawler-duckduckbot",
      "crawler-duckassistbot",
      "datacenter-x4bnet",
      "cloud-azure",
    ]);

    // A platform inside a cloud is both: GitHub's egress is hosting too.
    const gh = classifyPrivacy("4.147.189.193", null);
    expect(gh.matches.map((m) => [m.feed, m.shadowed])).toEqual([
      ["platform-github", false],
      ["datacenter-x4bnet", false],
      ["cloud-azure", false],
    ]);
    expect(gh).toMatchObject({ hosting: true, service: "GitHub" });
  });

  it("a Tor exit on a hosting network is both (not a VPN: the Tor list shadows X4BNet's VPN range of Tor operators); a relay on a CDN network is only a relay", () => {
    const asn = { asn: 24940, provider: "Hetzner Online", kind: "hosting", snapshotDate: new Date("2026-01-01") };
    const tor = classifyPrivacy("185.220.101.1", asn);
    expect(tor).toMatchObject({ tor: true, vpn: false, hosting: true, service: "Tor exit relay" });
    expect(tor.matches.map((m) => [m.kind, m.range, m.shadowed])).toEqual([
      ["tor", "185.220.101.1/32", false],
      ["vpn", "185.220.101.0/24", true],
      ["hosting", "185.220.101.0/24", false],
      ["hosting_asn", "AS24940", false],
    ]);
    const relay = classifyPrivacy("104.28.28.1", {
      asn: 13335,
      provider: "Cloudflare",
      kind: "cdn",
      snapshotDate: new Date("2026-01-01"),
    });
    expect(relay).toMatchObject({ relay: true, cdn: false, hosting: false, service: "iCloud Private Relay" });
    expect(relay.matches).toHaveLength(1);
  });

  it("an iCloud Private Relay egress inside X4BNet's VPN range of its CDN is a relay, not a VPN, as on IPv6", () => {
    // Apple publishes these egress ranges; X4BNet lists the CDNs' networks (they carry WARP too) by their ASNs.
    for (const address of ["104.28.109.241", "172.224.247.54", "172.225.183.124", "2a02:26f7:b3c0:4000::1"]) {
      const c = classifyPrivacy(address, null);
      expect(c, address).toMatchObject({ relay: true, vpn: false, service: "iCloud Private Relay" });
      for (const m of c.matches.filter((x) => x.kind === "vpn")) expect(m.shadowed, address).toBe(true);
    }
  });

  it("each match carries its list's snapshot date and the age factor of its freshness window", () => {
    // Today (2026-11) the 2024-08-20 Tor list is far past its 14 days (a quarter); the 2026-08-22 ranges are about 100
    // days old: within a cloud list's 365 days and a crawler list's 180 (in full).
    expect(classifyPrivacy("185.220.101.1", null).matches[0]).toMatchObject({
      snapshotDate: "2024-08-20",
      weightFactor: 0.25,
      list: "Tor Project exit-addresses",
    });
    expect(classifyPrivacy("1.178.1.1", null).matches[0]).toMatchObject({
      snapshotDate: "2026-08-22",
      weightFactor: 1,
      list: "AWS ip-ranges.json",
    });
    expect(classifyPrivacy("66.249.72.1", null).matches[0]).toMatchObject({
      snapshotDate: "2026-08-22",
      weightFactor: 1,
    });
  });

  it("one index holds every list: about 100,000 ranges, built once and shared", () => {
    const a = getPrivacyIndex();
    expect(getPrivacyIndex()).toBe(a);
    // 27,644 published ranges and 1,256 Tor exits, less the seven special-purpose ranges of Vultr's geofeed
    // (documentation, benchmarking and 6to4 space, which belongs to no provider); X4BNet's exit lists of Mullvad,
    // PIA and Proton, its VPN and datacenter ranges; the 3,992 entries of 32 MISP scanner lists (one list each).
    expect(a.size.ranges).toBe(27_644 + 1_256 - 7 + 566 + 1_548 + 2_715 + 11_360 + 51_318 + 3_992);
    expect(a.lists.map((l) => l.feed)).toHaveLength(23 + 5 + 32);
  });

  it("the start-up build gives the event loop turns while it works, and makes the index the one-piece build makes", async () => {
    const { lists } = privacyIndexInput();
    const whole = PrivacyIndex.build(lists);
    let turns = 0;
    let counting = true;
    const spin = () => {
      if (!counting) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const before = turns;
    const sliced = await PrivacyIndex.buildAsync(lists);
    const during = turns - before;
    counting = false;
    expect(during).toBeGreaterThan(1);
    expect(sliced.size).toEqual(whole.size);
    for (const address of ["185.220.101.1", "104.28.28.1", "66.249.72.1", "2a02:26f7:b00a:4000::1", "8.8.4.4"])
      expect(sliced.lookup(address)).toEqual(whole.lookup(address));
  });
});
