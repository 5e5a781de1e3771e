import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { resetFeedCache } from "../../server/feeds/loader";
import { refreshFeeds } from "../../server/feeds/refresh";
import { getIpReputation, warmIpFeeds } from "../../server/ip/reputation";
import { startFeedServer, type FakeFeedServer } from "../fakes/feed-server";

let feeds: FakeFeedServer;

beforeAll(async () => {
  const db = await getDb();
  await db.feedSnapshot.deleteMany({});
  resetFeedCache();
  feeds = await startFeedServer({
    "/tor": { body: "185.220.101.7\n" },
    "/drop": {
      body: [
        '{"cidr":"192.0.2.0/24","sblid":"SBL000001","rir":"arin"}',
        '{"type":"metadata","timestamp":1795000000,"size":1,"records":1,"copyright":"(c) 2026 The Spamhaus Project SLU"}',
      ].join("\n"),
    },
  });
}, 180_000);

// Parsing the shipped routing tables takes seconds on a busy machine: do it once, outside the tests' timeouts.
beforeAll(async () => {
  await warmIpFeeds();
}, 180_000);

afterAll(() => feeds.close());

describe("IP reputation from shipped data", () => {
  it("a Cloudflare address outside its published ranges: a CDN edge by its origin AS, scored with its reasons", async () => {
    const r = await getIpReputation("1.1.1.1");
    expect(r).toMatchObject({
      ip: "1.1.1.1",
      version: 4,
      classification: { scope: "public", bogon: false },
      asn: { number: 13335, organization: "Cloudflare, Inc." },
      network: { type: "hosting", kind: "cdn", provider: "Cloudflare", confidence: "high" },
      privacy: {
        cdn: true,
        hosting: false,
        service: "Cloudflare",
        matches: [{ kind: "hosting_asn", range: "AS13335", feed: "hosting-asns" }],
      },
      anonymizers: { hosting: { value: true }, vpn: { value: false }, proxy: { value: null } },
    });
    expect(r.risk.reasons.map((x) => x.code)).toEqual(["cdn_edge"]);
    expect(r.risk.score).toBe(10);
    expect(r.sources.map((s) => s.name)).toEqual(
      expect.arrayContaining(["asn-ipv4", "hosting-asns", "tor-exits", "spamhaus-drop"]),
    );
    expect(r.sources.find((s) => s.name === "asn-ipv4")?.fetchedAt).toBe("2026-06-17T19:00:00.000Z");
  });

  it("empty lists answer null with a reason, never 'not listed'; the shipped Tor list answers false", async () => {
    const r = await getIpReputation("8.8.8.8");
    const drop = r.lists.find((l) => l.list === "spamhaus-drop")!;
    expect(drop.listed).toBeNull();
    expect(drop.reason).toMatch(/feeds refresh --feed spamhaus-drop/);
    expect(r.lists.find((l) => l.list === "tor-exits")).toMatchObject({ listed: false, reason: null });
    expect(r.anonymizers.torExit.value).toBe(false);
    expect(r.asn?.number).toBe(15169);
    // Public DNS, in Google's goog.json (the shipped snapshot): Google's network, not a Google Cloud customer's.
    expect(r.network).toMatchObject({ type: "hosting", kind: "platform", provider: "Google", cloud: null });
  });

  it("IPv6 addresses are answered in canonical form with their origin AS", async () => {
    const r = await getIpReputation("2606:4700:0000::1111");
    expect(r.ip).toBe("2606:4700::1111");
    expect(r.asn?.number).toBe(13335);
    expect(r.lists.map((l) => l.list)).toContain("spamhaus-drop-v6");
  });

  it("a private address is a bogon with no AS, and the score says why", async () => {
    const r = await getIpReputation("10.0.0.1");
    expect(r.classification).toMatchObject({ scope: "private", bogon: true });
    expect(r.asn).toBeNull();
    expect(r.asnReason).toMatch(/Not a public address/);
    expect(r.risk.reasons[0]).toMatchObject({ code: "bogon", points: 25 });
  });

  it("refreshed Tor and DROP lists mark the address, keep the flags apart and raise the score", async () => {
    process.env.SERVICE_FEED_TOR_EXITS_URL = `${feeds.url}/tor`;
    process.env.SERVICE_FEED_SPAMHAUS_DROP_URL = `${feeds.url}/drop`;
    try {
      const db = await getDb();
      const results = await refreshFeeds(db, { feed: "tor-exits" });
      results.push(...(await refreshFeeds(db, { feed: "spamhaus-drop" })));
      expect(results.every((x) => x.ok)).toBe(true);

      const tor = await getIpReputation("185.220.101.7");
      expect(tor.anonymizers.torExit).toEqual({ value: true, reason: null });
      expect(tor.anonymizers.vpn.value).toBe(false);
      // A fresh list counts fully: its date and age, and no caveat.
      expect(tor.risk.reasons).toContainEqual({
        code: "tor_exit",
        points: 45,
        reason: `Listed as a Tor exit in the ${new Date().toISOString().slice(0, 10)} list (0 days old): traffic is anonymised`,
      });
      expect(tor.privacy.matches[0]).toMatchObject({ kind: "tor", weightFactor: 1 });
      // The refreshed list replaced the shipped one.
      expect((await getIpReputation("2.58.56.35")).privacy.tor).toBe(false);
      expect(tor.lists.find((l) => l.list === "tor-exits")?.listed).toBe(true);
      expect(tor.risk.reasons.map((x) => x.code)).toContain("tor_exit");
      expect(tor.sources.find((s) => s.name === "tor-exits")).toMatchObject({ origin: "refreshed", count: 1 });

      const dropped = await getIpReputation("192.0.2.10");
      const drop = dropped.lists.find((l) => l.list === "spamhaus-drop")!;
      expect(drop).toMatchObject({ listed: true, detail: "192.0.2.0/24 SBL000001" });
      // 192.0.2.0/24 is also documentation space: both reasons count.
      expect(dropped.risk.reasons.map((x) => x.code).sort()).toEqual(["bogon", "spamhaus_drop"]);
      expect(dropped.risk).toMatchObject({ score: 85, level: "critical" });
      expect(dropped.sources.find((s) => s.name === "spamhaus-drop")?.version).toBe(
        new Date(1795000000 * 1000).toISOString(),
      );

      const clean = await getIpReputation("8.8.4.4");
      expect(clean.lists.find((l) => l.list === "tor-exits")?.listed).toBe(false);
      expect(clean.lists.find((l) => l.list === "spamhaus-drop")?.listed).toBe(false);
    } finally {
      delete process.env.SERVICE_FEED_TOR_EXITS_URL;
      delete process.env.SERVICE_FEED_SPAMHAUS_DROP_URL;
    }
  });

  it("an invalid address is refused", async () => {
    await expect(getIpReputation("1.2.3")).rejects.toMatchObject({ appCode: "INVALID_REQUEST" });
  });
});
