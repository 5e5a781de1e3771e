import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb, type Db } from "../../server/db/client";
import { getFeed, getFeedSync, resetFeedCache } from "../../server/feeds/loader";
import { writeSnapshot } from "../../server/feeds/store";
import { refreshFeeds } from "../../server/feeds/refresh";
import type { RangeList } from "../../server/feeds/definitions/ranges";
import { feedStatus } from "../../server/feeds/status";
import { classifyPrivacy } from "../../server/ip/privacy";
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
    expect(before).toMatchObject({ origin: "shipped", count: 1256 });
    expect(before.fetchedAt.toISOString()).toBe("2024-08-20T00:00:00.000Z");

    const [result] = await refreshFeeds(db, { feed: "tor-exits" });
    expect(result).toMatchObject({
      name: "tor-exits",
      ok: true,
      count: 3,
      ageSeconds: 0,
      error: null,
      sourceUrl: `${feeds.url}/tor`,
    });

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

  it("a running process looks for a copy refreshed elsewhere every SERVICE_FEED_RECHECK_SECONDS, not sooner", async () => {
    process.env.SERVICE_FEED_RECHECK_SECONDS = "1";
    try {
      const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
      // The first use answers from the shipped snapshot and looks in the database at once (nothing there yet).
      expect(getFeedSync<Set<string>>("tor-exits").origin).toBe("shipped");
      const looked = Date.now();
      await sleep(100);
      // Another instance refreshes the feed: only the database changes here.
      await writeSnapshot(db, "tor-exits", Buffer.from(GOOD_TOR), {
        fetchedAt: new Date(),
        count: 3,
        version: null,
        sourceUrl: `${feeds.url}/tor`,
      });
      await sleep(100);
      expect(getFeedSync<Set<string>>("tor-exits").origin).toBe("shipped");
      // A second after the last look, the next use looks again (in the background) and later uses see the copy.
      await sleep(Math.max(0, looked + 1_050 - Date.now()));
      let state = getFeedSync<Set<string>>("tor-exits");
      for (let i = 0; i < 50 && state.origin !== "refreshed"; i++) {
        await sleep(20);
        state = getFeedSync<Set<string>>("tor-exits");
      }
      expect(state).toMatchObject({ origin: "refreshed", count: 3 });
      expect(state.data.has("185.220.101.2")).toBe(true);
    } finally {
      delete process.env.SERVICE_FEED_RECHECK_SECONDS;
    }
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

  it("an unreachable source says why (the connection's error, such as ECONNREFUSED), not just fetch failed", async () => {
    // Found walking `feeds status` and the scheduled refresh's log on a machine without internet: every feed said
    // "fetch failed" and nothing more, undici's message without its cause.
    process.env.SERVICE_FEED_TOR_EXITS_URL = "http://127.0.0.1:4498/tor"; // nothing listens there
    try {
      const [result] = await refreshFeeds(db, { feed: "tor-exits" });
      expect(result!.error).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:4498\/tor: ECONNREFUSED/);
    } finally {
      process.env.SERVICE_FEED_TOR_EXITS_URL = `${feeds.url}/tor`;
    }
  });

  it("a failure names the source without its credentials or query (a token in the URL stays out of status and logs)", async () => {
    for (const [url, shown] of [
      ["http://127.0.0.1:4498/tor?token=s3cret&x=1", /^cannot reach http:\/\/127\.0\.0\.1:4498\/tor\?…: ECONNREFUSED/],
      [`${feeds.url}/fail?key=s3cret`, /^HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/fail\?…$/],
      [`${feeds.url.replace("http://", "http://user:pa55@")}/fail`, /^cannot reach http:\/\/127\.0\.0\.1:\d+\/fail: /],
    ] as const) {
      feeds.set("/fail", { status: 500, body: "oops" });
      process.env.SERVICE_FEED_TOR_EXITS_URL = url;
      try {
        const [result] = await refreshFeeds(db, { feed: "tor-exits" });
        expect(result!.error).toMatch(shown);
        expect(result!.error).not.toMatch(/s3cret|pa55|user/);
      } finally {
        process.env.SERVICE_FEED_TOR_EXITS_URL = `${feeds.url}/tor`;
      }
    }
  });

  it("`admin feeds refresh` says each feed's outcome in words, and an unknown feed lists the known ones", async () => {
    // It printed each result object's values joined by tabs ("tor-exits\tfalse\t1256\t2024-08-20...\t71904111\t...").
    const { feedsCommand } = await import("../../server/admin/feeds-command");
    feeds.set("/tor", { status: 500, body: "oops" });
    const failed = await feedsCommand(db, "refresh", "tor-exits");
    expect(failed.text).toBe(
      `tor-exits: refresh failed (HTTP 500 from ${feeds.url}/tor); kept its 1256 entries from 2024-08-20T00:00:00.000Z`,
    );
    feeds.set("/tor", { body: GOOD_TOR });
    const worked = await feedsCommand(db, "refresh", "tor-exits");
    expect(worked.text).toBe("tor-exits: refreshed, 3 entries");
    expect(worked.failed).toBeUndefined();
    const snapshot = await feedsCommand(db, "refresh", "platform-twitter");
    expect(snapshot.text).toMatch(/^platform-twitter: not refreshed \(no live source[^)]*\); 21 entries from /);
    await expect(feedsCommand(db, "refresh", "nosuch")).rejects.toThrow(
      /Unknown feed "nosuch". Known feeds: .*tor-exits/,
    );
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
    const state = await getFeed<RangeList>("cloud-aws", { db });
    expect(state.version).toBe("2026-11-01-00-00-00");
    expect(state.data.entries.map((e) => [e.cidr, e.region, e.service])).toEqual([
      ["3.0.0.0/15", "ap-northeast-1", "AMAZON"],
      ["3.0.5.0/24", "ap-northeast-1", "EC2"],
      ["2600:1f00::/24", "us-east-1", "AMAZON"],
    ]);
  });

  it("a list published as several files (OpenAI's three) is downloaded whole, and the index answers from it at once", async () => {
    feeds.set("/gptbot", {
      contentType: "application/json",
      body: JSON.stringify({ creationTime: "2026-11-20", prefixes: [{ ipv4Prefix: "20.171.206.0/28" }] }),
    });
    feeds.set("/searchbot", {
      contentType: "application/json",
      body: JSON.stringify({ prefixes: [{ ipv6Prefix: "2603:1063:2000::/48" }] }),
    });
    feeds.set("/chatgpt-user", { body: "# plain list\n52.156.77.128/27\n" });
    process.env.SERVICE_FEED_CRAWLER_OPENAI_URL = `${feeds.url}/gptbot ${feeds.url}/searchbot ${feeds.url}/chatgpt-user`;
    try {
      const [result] = await refreshFeeds(db, { feed: "crawler-openai" });
      expect(result).toMatchObject({ ok: true, count: 3, error: null });
      const p = classifyPrivacy("2603:1063:2000::9", null);
      expect(p).toMatchObject({ crawler: true, service: "OpenAI crawlers" });
      expect(p.matches[0]).toMatchObject({
        feed: "crawler-openai",
        range: "2603:1063:2000::/48",
        snapshotDate: new Date().toISOString().slice(0, 10),
        weightFactor: 1,
      });
      expect(classifyPrivacy("52.156.77.130", null).crawler).toBe(true);
      // The shipped OpenAI ranges are replaced, not merged.
      expect(classifyPrivacy("4.227.36.1", null).crawler).toBe(false);
    } finally {
      delete process.env.SERVICE_FEED_CRAWLER_OPENAI_URL;
    }
  });

  it("a range list with a line that is not a CIDR keeps the previous data", async () => {
    process.env.SERVICE_FEED_VPN_PROTONVPN_URL = `${feeds.url}/proton`;
    feeds.set("/proton", { body: "185.159.157.0/24\nnot-an-address\n" });
    try {
      const [result] = await refreshFeeds(db, { feed: "vpn-protonvpn" });
      expect(result!.ok).toBe(false);
      expect(result!.error).toMatch(/not a CIDR at line 2/);
      expect(result!.count).toBe(672);
    } finally {
      delete process.env.SERVICE_FEED_VPN_PROTONVPN_URL;
    }
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
    for (const n of [
      "asn-ipv4",
      "asn-ipv6",
      "tor-exits",
      "spamhaus-drop",
      "cloud-cloudflare",
      "public-suffix-list",
      "rdap-bootstrap-dns",
      "disposable-domains",
    ]) {
      expect(names).toContain(n);
    }
    const asn = status.find((s) => s.name === "asn-ipv4")!;
    expect(asn).toMatchObject({ origin: "shipped", license: "CC-BY-4.0", version: "2.3.2026061719", error: null });
    expect(asn.count).toBeGreaterThan(400_000);
    expect(asn.attribution).toContain("DB-IP");
    const cf = status.find((s) => s.name === "cloud-cloudflare")!;
    expect(cf.count).toBe(22);
    expect(status.every((s) => s.error === null)).toBe(true);
    // A list shipped empty and never refreshed (Spamhaus's terms ask users to fetch it) has no date and no age, not
    // 1970's.
    expect(status.find((s) => s.name === "spamhaus-drop")).toMatchObject({
      count: 0,
      fetchedAt: null,
      ageSeconds: null,
    });
    expect(asn.ageSeconds).toBeGreaterThan(0);
  });

  it("every evidence feed shows with its snapshot's date and count, its live source or none, and its licence", async () => {
    const status = await feedStatus(db);
    const row = (name: string) => status.find((s) => s.name === name)!;
    const counts: Record<string, number> = {
      "cloud-aws": 3859,
      "relay-icloud-private-relay": 13745,
      "platform-github": 5519,
      "cloud-oracle": 793,
      "vpn-protonvpn": 672,
      "cloud-azure": 519,
      "crawler-duckduckbot": 479,
      "crawler-duckassistbot": 479,
      "cloud-linode": 279,
      "cloud-digitalocean": 234,
      "crawler-openai": 233,
      "monitor-statuscake": 183,
      "monitor-pingdom": 154,
      "cloud-vultr": 151,
      "cloud-gcp": 112,
      "platform-facebook": 74,
      "crawler-googlebot": 65,
      "crawler-bing": 28,
      "cloud-cloudflare": 22,
      "platform-twitter": 21,
      "crawler-perplexity": 12,
      "platform-telegram": 11,
    };
    for (const [name, count] of Object.entries(counts)) {
      expect(row(name), name).toMatchObject({
        origin: "shipped",
        count,
        version: "2026-08-22",
        fetchedAt: "2026-08-22T00:00:00.000Z",
        license: expect.stringContaining("CC0"),
        error: null,
      });
    }
    expect(row("tor-exits")).toMatchObject({
      count: 1256,
      fetchedAt: "2024-08-20T00:00:00.000Z",
      sourceUrl: `${feeds.url}/tor`,
    });
    expect(row("kev")).toMatchObject({ count: 1404, version: "2025.08.25" });
    expect(row("relay-icloud-private-relay").sourceUrl).toBe("https://mask-api.icloud.com/egress-ip-ranges.csv");
    expect(row("crawler-googlebot").sourceUrl).toBe(
      "https://developers.google.com/static/search/apis/ipranges/googlebot.json",
    );
    // No stable published address: shipped as a snapshot and said so.
    expect(row("platform-twitter").sourceUrl).toBeNull();
    expect(row("platform-twitter").attribution).toMatch(/snapshot only/);
    const [twitter] = await refreshFeeds(db, { feed: "platform-twitter" });
    expect(twitter).toMatchObject({ ok: false, count: 21, error: expect.stringMatching(/no live source/) });
  });
});
