// GET /v1/sources: every feed with entries, age, origin, licence and refresh state, for any workspace key and
// unmetered; a failing refresh shows as `failing` with the data kept, and neither source addresses nor error texts
// (operator matters: a feed may point at an internal mirror) reach the customer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEED_JOB_PREFIX, feedRefreshTasks } from "../../server/feeds/schedule";
import { resetFeedCache } from "../../server/feeds/loader";
import { runIfDue } from "../../server/queue/scheduled";
import { startFeedServer, type FakeFeedServer } from "../fakes/feed-server";
import { createTestApp } from "../harness";

const app = await createTestApp();
let feeds: FakeFeedServer;

beforeAll(async () => {
  feeds = await startFeedServer({ "/tor": { status: 503, body: "down for maintenance" } });
  process.env.SERVICE_FEED_TOR_EXITS_URL = `${feeds.url}/tor`;
  resetFeedCache();
});

afterAll(async () => {
  await feeds.close();
  delete process.env.SERVICE_FEED_TOR_EXITS_URL;
});

describe("GET /v1/sources", () => {
  it("lists every feed with its age and refresh state for a Free key, unmetered", async () => {
    const { workspaceId, apiKey } = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/sources", { key: apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const byName = new Map(res.body.sources.map((s: { name: string }) => [s.name, s]));
    expect(byName.get("tor-exits")).toMatchObject({
      origin: "shipped",
      entries: 1256,
      fetched_at: "2024-08-20T00:00:00.000Z",
      refresh: { status: "ok", every_seconds: 3600, last_failed_at: null },
    });
    expect(byName.get("hosting-asns")).toMatchObject({
      refresh: { status: "snapshot", every_seconds: null, next_run_at: null },
    });
    expect(byName.get("kev")).toMatchObject({ refresh: { status: "ok", every_seconds: 86_400 } });
    expect(await app.used(workspaceId)).toBe(0);
    expect(await app.ledgerCount(workspaceId)).toBe(0);
  });

  it("shows a failing refresh as failing with the previous data kept, with the reason in words but without the source address or the raw error text", async () => {
    const { apiKey } = await app.seedWorkspace({ plans: ["free"] });
    const task = feedRefreshTasks().find((t) => t.name === `${FEED_JOB_PREFIX}tor-exits`)!;
    const failedAt = new Date();
    expect(await runIfDue(app.db, task, failedAt)).toBe("failed");
    const res = await app.request("GET", "/v1/sources", { key: apiKey });
    const tor = res.body.sources.find((s: { name: string }) => s.name === "tor-exits");
    expect(tor).toMatchObject({
      entries: 1256,
      origin: "shipped",
      refresh: {
        status: "failing",
        last_failed_at: failedAt.toISOString(),
        last_error: "the source answered HTTP 503",
      },
    });
    expect(res.text).not.toContain(feeds.url);
    expect(res.text).not.toContain("127.0.0.1");
    expect(res.text).not.toContain("maintenance");
  });

  it("needs a key", async () => {
    const res = await app.request("GET", "/v1/sources");
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBeTruthy();
  });
});

describe("publicRefreshError", () => {
  it("names the kind of failure without addresses", async () => {
    const { publicRefreshError } = await import("../../server/feeds/public-status");
    expect(publicRefreshError("HTTP 502 from http://10.1.2.3/mirror/tor")).toBe("the source answered HTTP 502");
    expect(publicRefreshError("timed out after 60000 ms")).toBe("the source did not answer in time");
    expect(publicRefreshError("getaddrinfo ENOTFOUND mirror.internal")).toBe("the source could not be reached");
    expect(publicRefreshError("fetch failed")).toBe("the source could not be reached");
    expect(publicRefreshError("cannot reach http://127.0.0.1:9/tor: bad port")).toBe("the source could not be reached");
    expect(publicRefreshError("payload of 999 bytes exceeds the limit")).toBe("the download was larger than allowed");
    expect(publicRefreshError("source returned an empty list; keeping the previous 3 entries")).toBe(
      "the source returned an empty list",
    );
    expect(publicRefreshError("Unexpected token < in JSON at position 0")).toBe(
      "the downloaded data could not be read",
    );
    expect(publicRefreshError(null)).toBeNull();
  });
});
