// Feeds refresh themselves on the queue's scheduled jobs: from a local feed server, once across two schedulers
// sharing the database, on each feed's cadence; a failing source keeps the previous data, backs off, and is logged
// once per cadence; `feeds status` shows cadence, next run and the last error; `off` disables one feed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { feedsCommand } from "../../server/admin/feeds-command";
import { configurationProblems } from "../../server/startup/validate";
import { getDb, type Db } from "../../server/db/client";
import { getFeed, resetFeedCache } from "../../server/feeds/loader";
import { FEED_JOB_PREFIX, feedCadenceMs, feedRefreshTasks } from "../../server/feeds/schedule";
import { feedStatus } from "../../server/feeds/status";
import { retryDelayMs, runIfDue, startScheduler, type ScheduledTask } from "../../server/queue/scheduled";
import { scheduledTasks } from "../../server/startup/tasks";
import { startFeedServer, type FakeFeedServer } from "../fakes/feed-server";

let db: Db;
let feeds: FakeFeedServer;
const HOUR = 3_600_000;
const TOR_JOB = `${FEED_JOB_PREFIX}tor-exits`;
const GOOD_TOR = "185.220.101.1\n185.220.101.2\n2001:db8::7\n";

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
  delete process.env.SERVICE_FEED_TOR_EXITS_REFRESH_SECONDS;
  delete process.env.SERVICE_FEED_REFRESH;
});

beforeEach(async () => {
  await db.feedSnapshot.deleteMany({});
  await db.scheduleLease.deleteMany({});
  resetFeedCache();
  feeds.hits.length = 0;
  delete process.env.SERVICE_FEED_TOR_EXITS_REFRESH_SECONDS;
  delete process.env.SERVICE_FEED_REFRESH;
});

const torTask = (): ScheduledTask => feedRefreshTasks().find((t) => t.name === TOR_JOB)!;
const torHits = () => feeds.hits.filter((h) => h === "/tor").length;

describe("scheduled feed refresh", () => {
  it("has a job per feed with a live source on its kind's cadence, and none for snapshot-only feeds", () => {
    const names = scheduledTasks().map((t) => t.name);
    expect(names).toContain("retention.purge");
    expect(names).toContain(TOR_JOB);
    expect(names).toContain(`${FEED_JOB_PREFIX}kev`);
    // hosting-asns and role-accounts change only with a release: no job
    expect(names).not.toContain(`${FEED_JOB_PREFIX}hosting-asns`);
    expect(names).not.toContain(`${FEED_JOB_PREFIX}role-accounts`);
    expect(feedCadenceMs("tor-exits")).toBe(HOUR);
    expect(feedCadenceMs("cloud-aws")).toBe(24 * HOUR);
    expect(feedCadenceMs("kev")).toBe(24 * HOUR);
    expect(feedCadenceMs("crawler-googlebot")).toBe(7 * 24 * HOUR);
    expect(feedCadenceMs("public-suffix-list")).toBe(7 * 24 * HOUR);
    process.env.SERVICE_FEED_TOR_EXITS_REFRESH_SECONDS = "600";
    expect(feedCadenceMs("tor-exits")).toBe(600_000);
    expect(torTask().everyMs).toBe(600_000);
  });

  it("refreshes a stale feed once across two schedulers sharing the database, then not again within its cadence", async () => {
    feeds.set("/tor", { body: GOOD_TOR });
    const a = startScheduler(db, [torTask()], { firstTickMs: HOUR, pollMs: HOUR });
    const b = startScheduler(db, [torTask()], { firstTickMs: HOUR, pollMs: HOUR });
    try {
      // The shipped Tor snapshot is from 2024: due at once.
      const now = new Date();
      const [ra, rb] = await Promise.all([a.tick(now), b.tick(now)]);
      expect([ra[TOR_JOB], rb[TOR_JOB]].sort()).toEqual(["not_due", "ran"]);
      expect(torHits()).toBe(1);
      const state = await getFeed<Set<string>>("tor-exits", { db });
      expect(state.origin).toBe("refreshed");
      expect(state.data.has("185.220.101.2")).toBe(true);
      const lease = await db.scheduleLease.findUniqueOrThrow({ where: { name: TOR_JOB } });
      expect(lease.leaseUntil.getTime()).toBe(now.getTime() + HOUR);
      expect(lease).toMatchObject({ lastError: null, failures: 0 });

      expect((await a.tick(new Date(now.getTime() + HOUR - 1000)))[TOR_JOB]).toBe("not_due");
      expect((await b.tick(new Date(now.getTime() + HOUR)))[TOR_JOB]).toBe("ran");
      expect(torHits()).toBe(2);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  it("does not download a feed whose data is younger than its cadence (just refreshed by the CLI)", async () => {
    feeds.set("/tor", { body: GOOD_TOR });
    await feedsCommand(db, "refresh", "tor-exits");
    expect(torHits()).toBe(1);
    expect(await runIfDue(db, torTask(), new Date())).toBe("not_due");
    expect(torHits()).toBe(1);
    const lease = await db.scheduleLease.findUniqueOrThrow({ where: { name: TOR_JOB } });
    expect(lease.leaseUntil.getTime()).toBeGreaterThan(Date.now() + HOUR - 60_000);
  });

  it("keeps the previous data when the source fails, backs off, logs once per cadence, and recovers", async () => {
    feeds.set("/tor", { body: GOOD_TOR });
    const t0 = new Date();
    expect(await runIfDue(db, torTask(), t0)).toBe("ran");

    feeds.set("/tor", { status: 503, body: "down" });
    const t1 = new Date(t0.getTime() + HOUR);
    expect(await runIfDue(db, torTask(), t1)).toBe("failed");
    let lease = await db.scheduleLease.findUniqueOrThrow({ where: { name: TOR_JOB } });
    expect(lease.failures).toBe(1);
    expect(lease.lastError).toContain("HTTP 503");
    expect(lease.errorLoggedAt?.getTime()).toBe(t1.getTime());
    // first retry after retryMs (5 min for an hourly feed), then doubling
    expect(lease.leaseUntil.getTime()).toBe(t1.getTime() + retryDelayMs(torTask(), 1));
    expect(retryDelayMs(torTask(), 1)).toBe(5 * 60_000);
    expect(retryDelayMs(torTask(), 2)).toBe(10 * 60_000);
    expect(retryDelayMs(torTask(), 9)).toBe(HOUR);

    expect(await runIfDue(db, torTask(), new Date(t1.getTime() + 60_000))).toBe("not_due");
    const t2 = new Date(t1.getTime() + 5 * 60_000);
    expect(await runIfDue(db, torTask(), t2)).toBe("failed");
    lease = await db.scheduleLease.findUniqueOrThrow({ where: { name: TOR_JOB } });
    expect(lease.failures).toBe(2);
    expect(lease.leaseUntil.getTime()).toBe(t2.getTime() + 10 * 60_000);
    // logged when the streak began, not again within the cadence
    expect(lease.errorLoggedAt?.getTime()).toBe(t1.getTime());

    // the data in use is still the good refresh
    resetFeedCache();
    const state = await getFeed<Set<string>>("tor-exits", { db });
    expect(state).toMatchObject({ origin: "refreshed", count: 3 });

    const status = (await feedStatus(db)).find((f) => f.name === "tor-exits")!;
    expect(status.refresh).toMatchObject({ mode: "scheduled", everySeconds: 3600, failures: 2 });
    expect(status.refresh.lastError).toContain("HTTP 503");
    expect(status.refresh.lastFailedAt).toBe(t2.toISOString());
    const text = (await feedsCommand(db, "status", null)).text;
    expect(text).toMatch(/tor-exits\trefreshed\t3\t.*every 1 h, next .*LAST REFRESH FAILED \(2x/);

    feeds.set("/tor", { body: "185.220.101.9\n" });
    const t3 = new Date(t2.getTime() + 10 * 60_000);
    expect(await runIfDue(db, torTask(), t3)).toBe("ran");
    lease = await db.scheduleLease.findUniqueOrThrow({ where: { name: TOR_JOB } });
    expect(lease).toMatchObject({ failures: 0, lastError: null, errorLoggedAt: null });
    expect((await getFeed<Set<string>>("tor-exits", { db })).data.has("185.220.101.9")).toBe(true);
  });

  it("says which feeds are off, snapshot-only or scheduled, and `off` switches one or all off", async () => {
    process.env.SERVICE_FEED_CLOUD_AWS_URL = "off";
    try {
      const status = new Map((await feedStatus(db)).map((f) => [f.name, f.refresh]));
      expect(status.get("cloud-aws")).toMatchObject({ mode: "off", everySeconds: null, nextRunAt: null });
      expect(status.get("hosting-asns")).toMatchObject({ mode: "snapshot", nextRunAt: null });
      const tor = status.get("tor-exits")!;
      expect(tor.mode).toBe("scheduled");
      // never run yet: due at once because the shipped snapshot is older than an hour
      expect(Date.parse(tor.nextRunAt!)).toBeLessThanOrEqual(Date.now());
      expect(feedRefreshTasks().map((t) => t.name)).not.toContain(`${FEED_JOB_PREFIX}cloud-aws`);

      process.env.SERVICE_FEED_REFRESH = "off";
      expect(feedRefreshTasks()).toEqual([]);
      expect((await feedStatus(db)).find((f) => f.name === "tor-exits")!.refresh.mode).toBe("off");
    } finally {
      process.env.SERVICE_FEED_CLOUD_AWS_URL = `${feeds.url}/aws`;
    }
  });

  it("refuses an invalid cadence at start, naming the variable", () => {
    process.env.SERVICE_FEED_TOR_EXITS_REFRESH_SECONDS = "1h";
    expect(configurationProblems().join("\n")).toContain("SERVICE_FEED_TOR_EXITS_REFRESH_SECONDS");
    process.env.SERVICE_FEED_TOR_EXITS_REFRESH_SECONDS = "10";
    expect(configurationProblems().join("\n")).toContain("at least 60");
  });
});
