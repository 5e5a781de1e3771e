// Evidence from the shipped snapshots through POST /assess: verified and spoofed crawlers, the privacy block in the
// assessment's `ip`, and weights reduced by a list's age with the list's date in the reason.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetFeedCache } from "../../server/feeds/loader";
import { refreshFeeds } from "../../server/feeds/refresh";
import { warmIpFeeds } from "../../server/ip/reputation";
import { startFeedServer, type FakeFeedServer } from "../fakes/feed-server";
import { createTestApp, type TestApp } from "../harness";

const GOOGLEBOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const GOOGLEBOT_IP = "66.249.66.1";
const HOME_IP = "73.162.1.1"; // Comcast, in no list

let app: TestApp;
let feeds: FakeFeedServer;
beforeAll(async () => {
  // The weights depend on the shipped lists' age (AGE_SCHEDULES): pinned to 2026-11-30, 100 days after the 2026-08-22
  // snapshots (only Date is faked, and it still advances).
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: new Date("2026-11-30T06:00:00Z") });
  app = await createTestApp();
  await app.db.feedSnapshot.deleteMany({});
  resetFeedCache();
  feeds = await startFeedServer({ "/tor": { body: "185.220.101.7\n" } });
  await warmIpFeeds();
}, 180_000);
afterAll(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await feeds.close();
  delete process.env.SERVICE_FEED_TOR_EXITS_URL;
  await app.db.feedSnapshot.deleteMany({});
  resetFeedCache();
});

async function assess(key: string, body: Record<string, unknown>) {
  const res = await app.request("POST", "/v1/assess", { key, body });
  expect(res.status).toBe(200);
  return res.body as {
    score: number;
    decision: string;
    signals: { code: string; weight: number; reason: string; evidence: string[] }[];
    ip: Record<string, unknown> & { privacy: Record<string, unknown> };
  };
}
const codes = (r: { signals: { code: string; weight: number }[] }) => r.signals.map((s) => [s.code, s.weight]);

describe("crawlers through /assess", () => {
  it("a real Googlebot on a form scores lower than the same user agent from a home connection", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const real = await assess(ws.apiKey, { event: "form", ip: GOOGLEBOT_IP, user_agent: GOOGLEBOT_UA });
    // -20 for a verified crawler on a form, in full: the crawler list of 2026-08-22 is within its 180 days.
    expect(codes(real)).toEqual([["ip_verified_crawler", -20]]);
    expect(real.signals[0]!.reason).toMatch(
      /^Verified Googlebot: the User-Agent claims it and 66\.249\.66\.1 is in its published ranges \(66\.249\.66\.0\/24\) in the 2026-08-22 list \(\d+ days old\)\. /,
    );
    expect(real).toMatchObject({ score: 0, decision: "allow" });
    expect(real.ip).toMatchObject({
      network_type: "service",
      hosting: false,
      privacy: { crawler: true, hosting: false, service: "Googlebot", proxy: null, proxy_reason: expect.any(String) },
    });
    expect((real.ip.privacy.matches as unknown[])[0]).toEqual({
      kind: "crawler",
      provider: "Googlebot",
      list: "Googlebot googlebot.json",
      feed: "crawler-googlebot",
      snapshot_date: "2026-08-22",
      range: "66.249.66.0/24",
      region: null,
      weight_factor: 1,
      shadowed: false,
      basis: "published_ranges",
      confidence: "high",
      detail:
        "In Googlebot googlebot.json (66.249.66.0/24, 2026-08-22): the operator's own published ranges, Googlebot, high confidence",
    });

    const spoofed = await assess(ws.apiKey, { event: "form", ip: HOME_IP, user_agent: GOOGLEBOT_UA });
    expect(codes(spoofed)).toEqual([["ua_spoofed_crawler", 50]]);
    expect(spoofed.signals[0]!.reason).toMatch(
      /claims to be Googlebot, but 73\.162\.1\.1 is outside Googlebot's published ranges/,
    );
    expect(spoofed.signals[0]!.evidence).toEqual(["request", "crawler-googlebot"]);
    expect(spoofed).toMatchObject({ score: 50, decision: "review" });
    expect(spoofed.ip.privacy).toMatchObject({ crawler: false, service: null, matches: [] });
  });

  it("a spoofed crawler counts on api events too; a verified one lowers an api event's score", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const spoofed = await assess(ws.apiKey, {
      event: "api",
      ip: "1.178.1.1",
      user_agent: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    });
    // The AWS address is hosting too: for an api event 5, in full (the cloud list is within its 365 days).
    expect(codes(spoofed)).toEqual([
      ["ua_spoofed_crawler", 50],
      ["ip_hosting", 5],
    ]);
    const verified = await assess(ws.apiKey, {
      event: "api",
      ip: "40.77.178.1",
      user_agent: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    });
    expect(codes(verified)).toEqual([["ip_verified_crawler", -20]]);
    expect(verified.ip).toMatchObject({ hosting: false, privacy: { crawler: true, service: "Bingbot" } });
  });

  it("Bingbot from its published range is verified, not a scanner, where a scanner list also holds the address", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const r = await assess(ws.apiKey, {
      event: "form",
      ip: "52.167.144.58", // in Bingbot's 52.167.144.0/24 and in CIRCL's Stretchoid list
      user_agent: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    });
    expect(codes(r)).toEqual([["ip_verified_crawler", -20]]);
    expect(r.ip.privacy).toMatchObject({ crawler: true, scanner: false, service: "Bingbot" });
  });

  it("a verified crawler on a signup is named but does not lower the score", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const r = await assess(ws.apiKey, { event: "signup", ip: GOOGLEBOT_IP, user_agent: GOOGLEBOT_UA });
    expect(codes(r)).toEqual([]);
    expect(r.ip.privacy).toMatchObject({ crawler: true, service: "Googlebot" });
  });
});

describe("age-reduced weights through /assess", () => {
  it("the shipped Tor list of 2024-08-20 counts at a quarter and says its date; a fresh refresh counts fully", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const old = await assess(ws.apiKey, { event: "login", ip: "185.220.101.7", user_agent: CHROME_UA });
    const tor = old.signals.find((s) => s.code === "ip_tor_exit")!;
    expect(tor.weight).toBe(11); // 45 / 4
    expect(tor.reason).toMatch(
      /^185\.220\.101\.7 is listed as a Tor exit in the 2024-08-20 list \(\d+ days old: Tor exits change daily, so from a list this old it may no longer be one; it counts at a quarter of its weight\)/,
    );
    expect(tor.evidence).toEqual(["tor-exits"]);
    // The exit's hosting network is a signal of its own, whose reason cites the hosting evidence only: the Tor and
    // VPN lists say their part in their own signals.
    const hosting = old.signals.find((s) => s.code === "ip_hosting")!;
    expect(hosting.reason).toContain("X4BNet lists_vpn datacenter ranges (185.220.101.0/24, 2026-08-22)");
    expect(hosting.reason).not.toMatch(/Tor Project exit-addresses|lists_vpn VPN ranges/);
    expect(old.ip).toMatchObject({
      tor_exit: true,
      network_type: "anonymizer",
      privacy: { tor: true, service: "Tor exit relay" },
    });

    process.env.SERVICE_FEED_TOR_EXITS_URL = `${feeds.url}/tor`;
    const [refreshed] = await refreshFeeds(app.db, { feed: "tor-exits" });
    expect(refreshed).toMatchObject({ ok: true, count: 1 });
    const fresh = await assess(ws.apiKey, { event: "login", ip: "185.220.101.7", user_agent: CHROME_UA });
    const now = fresh.signals.find((s) => s.code === "ip_tor_exit")!;
    expect(now.weight).toBe(45);
    expect(now.reason).toMatch(
      new RegExp(
        `^185\\.220\\.101\\.7 is listed as a Tor exit in the ${new Date().toISOString().slice(0, 10)} list \\(0 days old\\): .* Ask for stronger verification`,
      ),
    );
  });

  it("VPN moderate, private relay slight, each at its list's age factor with the date", async () => {
    // The X4BNet provider lists of 2026-08-22 are within a VPN list's 180 days; Apple's relay list is past its 90.
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const vpn = await assess(ws.apiKey, { event: "signup", ip: "2.58.241.66", user_agent: CHROME_UA });
    expect(vpn.signals.find((s) => s.code === "ip_vpn")).toMatchObject({
      weight: 30,
      reason: expect.stringContaining(
        "is a Proton VPN exit (2.58.241.66/32; Proton VPN logicals API (exit IPs), the provider's own list: high confidence) in the 2026-08-22 list (100 days old): ",
      ),
    });
    const relay = await assess(ws.apiKey, { event: "signup", ip: "2a02:26f7:b00a:4000::1", user_agent: CHROME_UA });
    expect(codes(relay)).toEqual([["ip_private_relay", 4]]);
    expect(relay.ip).toMatchObject({
      network_type: "anonymizer",
      hosting: false,
      privacy: { relay: true, cdn: false, service: "iCloud Private Relay" },
    });
    // On IPv4 too: Apple's egress inside X4BNet's VPN network of its CDN is a relay, not a VPN.
    const relay4 = await assess(ws.apiKey, { event: "signup", ip: "104.28.109.241", user_agent: CHROME_UA });
    expect(codes(relay4)).toEqual([["ip_private_relay", 4]]);
    expect(relay4.ip).toMatchObject({ privacy: { relay: true, vpn: false, service: "iCloud Private Relay" } });
  });
});

// Found reading /assess answers for real addresses: a CDN edge's signal said "belongs to Cloudflare (cdn network):
// people rarely browse from data centers, bots, proxies and VPNs do", the hosting wording, where /ip says what an edge
// means: the real client is behind it (most often the integrator sent its CDN's address instead of the client's).
describe("a CDN edge through /assess", () => {
  it("says the real client is hidden behind the edge and which address to send, not the data-center wording", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    for (const ip of ["1.1.1.1", "2606:4700:4700::1111", "104.16.1.1"]) {
      const r = await assess(ws.apiKey, { event: "login", ip, user_agent: CHROME_UA });
      const edge = r.signals.find((s) => s.code === "ip_cdn_edge")!;
      expect(edge.reason, ip).toMatch(
        new RegExp(`^${ip.replaceAll(".", "\\.")} is a CDN or reverse-proxy edge of Cloudflare`),
      );
      expect(edge.reason, ip).toMatch(/the real client is hidden behind it/);
      expect(edge.reason, ip).toMatch(/send the client's own address/);
      expect(edge.reason, ip).not.toMatch(/people rarely browse from data centers/);
    }
    // A plain hosting address keeps the hosting wording.
    const aws = await assess(ws.apiKey, { event: "login", ip: "3.5.140.2", user_agent: CHROME_UA });
    expect(aws.signals.find((s) => s.code === "ip_hosting")!.reason).toMatch(/people rarely browse from data centers/);
  });
});

describe("an IPv4-mapped IPv6 address (how a dual-stack socket reports an IPv4 client)", () => {
  it("is its IPv4 address: the same evidence, location and answer on /assess and the IP routes", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const plain = await assess(ws.apiKey, { event: "login", ip: "185.220.101.7", user_agent: CHROME_UA });
    for (const mapped of ["::ffff:185.220.101.7", "::FFFF:b9dc:6507", "0:0:0:0:0:ffff:185.220.101.7"]) {
      const r = await assess(ws.apiKey, { event: "login", ip: mapped, user_agent: CHROME_UA });
      expect(codes(r), mapped).toEqual(codes(plain));
      expect(codes(r).map(([c]) => c)).toContain("ip_tor_exit");
      expect(r.ip).toMatchObject({ address: "185.220.101.7" });
      for (const path of ["", "/reputation", "/geo"]) {
        const a = await app.request("GET", `/v1/ip/${encodeURIComponent(mapped)}${path}`, { key: ws.apiKey });
        const b = await app.request("GET", `/v1/ip/185.220.101.7${path}`, { key: ws.apiKey });
        expect(a.status, `${mapped}${path}`).toBe(200);
        const same = (x: Record<string, unknown>) => JSON.stringify({ ...x, checkedAt: null, checked_at: null });
        expect(same(a.body), `${mapped}${path}`).toBe(same(b.body));
      }
    }
  });
});
