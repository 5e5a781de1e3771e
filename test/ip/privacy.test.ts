// The privacy classification from the shipped evidence snapshots: addresses drawn from each list (IPv4 and IPv6)
// with the class and provider they must get, addresses in no list, overlapping lists, and the same object on
// /ip/{ip}, /ip/{ip}/reputation through the REST API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { resetFeedCache } from "../../server/feeds/loader";
import { classifyPrivacy, getPrivacyIndex } from "../../server/ip/privacy";
import { getIpReputation, warmIpFeeds } from "../../server/ip/reputation";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp();
  await (await getDb()).feedSnapshot.deleteMany({});
  resetFeedCache();
  await warmIpFeeds(); // the routing tables and the evidence index: seconds, outside the tests' timeouts
}, 180_000);
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
  ["136.22.160.1", "hosting", "Google Cloud", "cloud-gcp", "136.22.160.0/20"],
  ["2a00:1450::1", "hosting", "Google Cloud", "cloud-gcp", "2a00:1450::/32"],
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

describe("privacy classification from the shipped snapshots", () => {
  it.each(TABLE)("%s is %s (%s)", (address, flag, service, feed, range) => {
    const p = classifyPrivacy(address, null);
    for (const f of FLAGS) expect(p[f], f).toBe(f === flag);
    expect(p.service).toBe(service);
    expect(p.matches[0]).toMatchObject({ feed, range, shadowed: false });
    expect(p.proxy).toBeNull();
    expect(p.proxyReason).toMatch(/No open-proxy address list/);
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
        proxy: null,
        proxyReason: expect.any(String),
        service: null,
        matches: [],
      });
    },
  );

  it("overlapping lists are all reported, most specific first; the narrower service shadows the cloud it runs in", () => {
    const bot = classifyPrivacy("66.249.72.1", null);
    expect(bot.matches.map((m) => [m.feed, m.range, m.kind, m.shadowed])).toEqual([
      ["crawler-googlebot", "66.249.72.0/22", "crawler", false],
      ["cloud-gcp", "66.249.64.0/19", "cloud", true],
    ]);
    expect(bot).toMatchObject({ crawler: true, hosting: false, service: "Googlebot" });

    const bing = classifyPrivacy("13.66.139.1", null);
    expect(bing.matches.map((m) => m.feed)).toEqual(["crawler-bing", "platform-github", "cloud-azure"]);
    expect(bing).toMatchObject({ crawler: true, hosting: false, service: "Bingbot" });

    // The same address on two crawler lists (DuckDuckGo publishes one for each bot): both, in list order.
    expect(classifyPrivacy("4.144.182.50", null).matches.map((m) => m.feed)).toEqual([
      "crawler-duckduckbot",
      "crawler-duckassistbot",
      "cloud-azure",
    ]);

    // A platform inside a cloud is both: GitHub's egress is hosting too.
    const gh = classifyPrivacy("4.147.189.193", null);
    expect(gh.matches.map((m) => [m.feed, m.shadowed])).toEqual([
      ["platform-github", false],
      ["cloud-azure", false],
    ]);
    expect(gh).toMatchObject({ hosting: true, service: "GitHub" });
  });

  it("a Tor exit on a hosting network is both; a relay on a CDN network is only a relay", () => {
    const asn = { asn: 24940, provider: "Hetzner Online", kind: "hosting", snapshotDate: new Date("2026-01-01") };
    const tor = classifyPrivacy("185.220.101.1", asn);
    expect(tor).toMatchObject({ tor: true, hosting: true, service: "Tor exit relay" });
    expect(tor.matches.map((m) => [m.kind, m.range])).toEqual([
      ["tor", "185.220.101.1/32"],
      ["hosting_asn", "AS24940"],
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

  it("each match carries its list's snapshot date and the age factor of its freshness window", () => {
    // Today (2026-11) the 2024-08-20 Tor list is far past twice its 7 days; the 2026-08-22 ranges are 93 days old:
    // past a cloud list's 90 days (half), past twice a crawler's or relay's 30 days (a quarter).
    expect(classifyPrivacy("185.220.101.1", null).matches[0]).toMatchObject({
      snapshotDate: "2024-08-20",
      weightFactor: 0.25,
      list: "Tor Project exit-addresses",
    });
    expect(classifyPrivacy("1.178.1.1", null).matches[0]).toMatchObject({
      snapshotDate: "2026-08-22",
      weightFactor: 0.5,
      list: "AWS ip-ranges.json",
    });
    expect(classifyPrivacy("66.249.72.1", null).matches[0]).toMatchObject({
      snapshotDate: "2026-08-22",
      weightFactor: 0.25,
    });
  });

  it("one index holds every list: about 30,000 ranges, built once and shared", () => {
    const a = getPrivacyIndex();
    expect(getPrivacyIndex()).toBe(a);
    // 27,644 published ranges and 1,256 Tor exits, less the seven special-purpose ranges of Vultr's geofeed
    // (documentation, benchmarking and 6to4 space, which belongs to no provider).
    expect(a.size.ranges).toBe(27_644 + 1_256 - 7);
    expect(a.lists.map((l) => l.feed)).toHaveLength(23);
  });
});

describe("the privacy object on the IP routes", () => {
  it("/v1/ip/{ip} and /reputation answer the same privacy object; network.type agrees", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const a = await app.request("GET", "/v1/ip/2.58.241.66", { key: ws.apiKey });
    expect(a.status).toBe(200);
    expect(a.body.privacy).toMatchObject({
      vpn: true,
      tor: false,
      service: "Proton VPN",
      proxy: null,
      matches: [
        {
          kind: "vpn",
          provider: "Proton VPN",
          list: "Proton VPN logicals API (exit IPs)",
          feed: "vpn-protonvpn",
          snapshotDate: "2026-08-22",
          range: "2.58.241.66/32",
          weightFactor: 0.25,
          shadowed: false,
        },
      ],
    });
    expect(a.body.network).toMatchObject({ type: "anonymizer", kind: "vpn", provider: "Proton VPN" });
    expect(a.body.anonymizers.vpn).toEqual({
      value: true,
      reason: "Proton VPN exit (2.58.241.66/32, Proton VPN logicals API (exit IPs), 2026-08-22)",
    });
    expect(a.body.risk.reasons).toContainEqual({
      code: "vpn_exit",
      points: 6,
      reason: expect.stringContaining("in the 2026-08-22 list"),
    });
    const b = await app.request("GET", "/v1/ip/2.58.241.66/reputation", { key: ws.apiKey });
    expect(b.body.privacy).toEqual(a.body.privacy);
  });

  it("an iCloud Private Relay egress is a relay, not a Cloudflare CDN edge", async () => {
    const r = await getIpReputation("104.28.28.1");
    expect(r.network).toMatchObject({ type: "anonymizer", kind: "relay", provider: "iCloud Private Relay" });
    expect(r.privacy).toMatchObject({ relay: true, cdn: false, service: "iCloud Private Relay" });
    expect(r.risk.reasons.map((x) => x.code)).toEqual(["private_relay"]);
  });

  it("a real Googlebot address is a named crawler, not cloud hosting +15", async () => {
    const r = await getIpReputation("66.249.66.1");
    expect(r.privacy).toMatchObject({ crawler: true, hosting: false, service: "Googlebot" });
    expect(r.network).toMatchObject({ type: "service", kind: "crawler", provider: "Googlebot" });
    expect(r.risk.reasons).toEqual([
      {
        code: "verified_crawler_range",
        points: 0,
        reason: expect.stringContaining("Googlebot's published ranges (66.249.66.0/24) in the 2026-08-22 list"),
      },
    ]);
    expect(r.risk.score).toBe(0);
  });

  it("the shipped Tor list flags a long-running exit with its date, at a quarter of the weight", async () => {
    const r = await getIpReputation("185.220.101.1");
    expect(r.anonymizers.torExit).toEqual({ value: true, reason: null });
    expect(r.network.type).toBe("anonymizer");
    expect(r.risk.reasons).toContainEqual({
      code: "tor_exit",
      points: 11,
      reason: expect.stringMatching(
        /^Listed as a Tor exit in the 2024-08-20 list \(older than the list's freshness window: counted at a quarter weight\)/,
      ),
    });
  });

  it("an IPv6 cloud address is hosting from the published ranges, named with its range", async () => {
    const r = await getIpReputation("2a05:d018::1");
    expect(r.privacy).toMatchObject({ hosting: true, service: "Amazon Web Services" });
    expect(r.network).toMatchObject({ type: "hosting", kind: "cloud", provider: "Amazon Web Services" });
    expect(r.risk.reasons).toContainEqual({
      code: "hosting",
      points: 10,
      reason: expect.stringContaining("2a05:d018::/35 in the 2026-08-22 list"),
    });
  });
});
