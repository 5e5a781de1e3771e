import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb, type Db } from "../../server/db/client";
import { getFeed, resetFeedCache } from "../../server/feeds/loader";
import { refreshFeeds } from "../../server/feeds/refresh";
import { feedStatus } from "../../server/feeds/status";
import { startFeedServer, type FakeFeedServer } from "../fakes/feed-server";

let db: Db;
let feeds: FakeFeedServer;

beforeAll(async () => {
  db = await getDb();
  feeds = await startFeedServer();
  process.env.SERVICE_FEED_TOR_EXITS_URL = `${feeds.url}/tor`;
  process.env.SERVICE_FEED_CLOUD_AWS_URL = `${feeds.url}/aws`;
});

afterAll(async () => {
  await feeds.close();
  delete process.env.SERVICE_FEED_TOR_EXITS_URL;
  delete process.env.SERVICE_FEED_CLOUD_AWS_URL;
});

beforeEach(async () => {
  await db.feedSnapshot.deleteMany({});
  resetFeedCache();
});

const GOOD_TOR = "185.220.101.1\n185.220.101.2\n2001:db8::7\n";

describe("feeds refresh", () => {
  it("a successful refresh stores the snapshot and the process answers from it at once", async () => {
    feeds.set("/tor", { body: GOOD_TOR });
    const before = await getFeed<Set<string>>("tor-exits", { db });
    expect(before.count).toBe(0);

    const [result] = await refreshFeeds(db, { feed: "tor-exits" });
    expect(result).toMatchObject({ name: "tor-exits", ok: true, count: 3, ageSeconds: 0, error: null, sourceUrl: `${feeds.url}/tor` });

    const now = await getFeed<Set<string>>("tor-exits", { db });
    expect(now.origin).toBe("refreshed");
    expect(now.data.has("185.220.101.2")).toBe(true);
    const row = await db.feedSnapshot.findUnique({ where: { name: "tor-exits" } });
    expect(row?.count).toBe(3);
  });

  it("another process (fresh cache) prefers the refreshed database copy over the shipped snapshot", async () => {
    feeds.set("/tor", { body: GOOD_TOR });
    await refreshFeeds(db, { feed: "tor-exits" });
    resetFeedCache();
    const state = await getFeed<Set<string>>("tor-exits", { db });
    expect(state.origin).toBe("refreshed");
    expect(state.data.has("185.220.101.1")).toBe(true);
  });

  it("a failed refresh (HTTP 500) keeps the previous data and says why", async () => {
    feeds.set("/tor", { body: GOOD_TOR });
    await refreshFeeds(db, { feed: "tor-exits" });
    feeds.set("/tor", { status: 500, body: "oops" });

    const [result] = await refreshFeeds(db, { feed: "tor-exits" });
    expect(result!.ok).toBe(false);
    expect(result!.error).toContain("HTTP 500");
    expect(result!.count).toBe(3);
    expect((await getFeed<Set<string>>("tor-exits", { db })).data.has("185.220.101.1")).toBe(true);
    expect((await db.feedSnapshot.findUnique({ where: { name: "tor-exits" } }))?.count).toBe(3);
  });

  it("a malformed payload keeps the previous data", async () => {
    feeds.set("/tor", { body: GOOD_TOR });
    await refreshFeeds(db, { feed: "tor-exits" });
    feeds.set("/tor", { body: "<html><body>Service moved</body></html>" });

    const [result] = await refreshFeeds(db, { feed: "tor-exits" });
    expect(result!.ok).toBe(false);
    expect(result!.error).toMatch(/not an IP address/);
    const state = await getFeed<Set<string>>("tor-exits", { db });
    expect(state.count).toBe(3);
    const row = await db.feedSnapshot.findUnique({ where: { name: "tor-exits" } });
    expect(row?.count).toBe(3);
  });

  it("an empty list never replaces data that was there", async () => {
    feeds.set("/tor", { body: GOOD_TOR });
    await refreshFeeds(db, { feed: "tor-exits" });
    feeds.set("/tor", { body: "# nothing today\n" });
    const [result] = await refreshFeeds(db, { feed: "tor-exits" });
    expect(result!.ok).toBe(false);
    expect(result!.error).toMatch(/empty list/);
    expect((await getFeed<Set<string>>("tor-exits", { db })).count).toBe(3);
  });

  it("an unreachable source fails without touching the stored data", async () => {
    process.env.SERVICE_FEED_TOR_EXITS_URL = "http://127.0.0.1:9/tor";
    try {
      const [result] = await refreshFeeds(db, { feed: "tor-exits" });
      expect(result!.ok).toBe(false);
      expect(result!.error).toBeTruthy();
      expect(await db.feedSnapshot.count()).toBe(0);
    } finally {
      process.env.SERVICE_FEED_TOR_EXITS_URL = `${feeds.url}/tor`;
    }
  });

  it("parses a provider's native format (AWS ip-ranges.json) into labelled ranges", async () => {
    feeds.set("/aws", {
      contentType: "application/json",
      body: JSON.stringify({
        createDate: "2026-11-01-00-00-00",
        prefixes: [
          { ip_prefix: "3.0.0.0/15", region: "ap-northeast-1", service: "AMAZON" },
          { ip_prefix: "3.0.5.0/24", region: "ap-northeast-1", service: "EC2" },
        ],
        ipv6_prefixes: [{ ipv6_prefix: "2600:1f00::/24", region: "us-east-1", service: "AMAZON" }],
      }),
    });
    const [result] = await refreshFeeds(db, { feed: "cloud-aws" });
    expect(result).toMatchObject({ ok: true, count: 3 });
    const state = await getFeed<{ lookup(ip: string): unknown }>("cloud-aws", { db });
    expect(state.version).toBe("2026-11-01-00-00-00");
    expect(state.data.lookup("3.0.5.9")).toEqual({ provider: "Amazon Web Services", region: "ap-northeast-1", service: "EC2" });
    expect(state.data.lookup("3.1.0.1")).toEqual({ provider: "Amazon Web Services", region: "ap-northeast-1", service: "AMAZON" });
    expect(state.data.lookup("4.0.0.1")).toBeNull();
  });

  it("a feed with no live source reports that instead of failing silently", async () => {
    const [result] = await refreshFeeds(db, { feed: "hosting-asns" });
    expect(result!.ok).toBe(false);
    expect(result!.error).toMatch(/no live source/);
    expect(result!.count).toBeGreaterThan(40);
  });

  it("an unknown feed name is refused", async () => {
    await expect(refreshFeeds(db, { feed: "no-such-feed" })).rejects.toMatchObject({ appCode: "INVALID_REQUEST" });
  });
});

describe("feeds status", () => {
  it("lists every feed with origin, count, age, licence and attribution", async () => {
    const status = await feedStatus(db);
    const names = status.map((s) => s.name);
    for (const n of ["asn-ipv4", "asn-ipv6", "tor-exits", "spamhaus-drop", "cloud-cloudflare", "public-suffix-list", "rdap-bootstrap-dns", "disposable-domains"]) {
      expect(names).toContain(n);
    }
    const asn = status.find((s) => s.name === "asn-ipv4")!;
    expect(asn).toMatchObject({ origin: "shipped", license: "CC-BY-4.0", version: "2.3.2026061719", error: null });
    expect(asn.count).toBeGreaterThan(400_000);
    expect(asn.attribution).toContain("DB-IP");
    const cf = status.find((s) => s.name === "cloud-cloudflare")!;
    expect(cf.count).toBeGreaterThan(10);
    expect(status.every((s) => s.error === null)).toBe(true);
  });
});
