// Shared setup for assessment tests: a test app on a fresh database, the IP feeds warmed outside the tests'
// timeouts, and a Tor exit list refreshed from a feed server on 127.0.0.1 (the shipped list is empty).
import { afterAll, beforeAll, expect } from "vitest";
import { refreshFeeds } from "../../server/feeds/refresh";
import { warmIpFeeds } from "../../server/ip/reputation";
import { startFeedServer, type FakeFeedServer } from "../fakes/feed-server";
import { createTestApp, type TestApp } from "../harness";

/** 217.160.0.1 is an IONOS (hosting) address, listed here as a Tor exit too, so one IP carries both signals. */
export const TOR_HOSTING_IP = "217.160.0.1";
/** A Comcast (residential, US) address: no IP signal. */
export const CLEAN_IP = "73.162.1.1";
export const CHROME_UA =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
export const HEADLESS_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36";

export function useAssessmentApp(): { app: () => TestApp } {
  let app: TestApp;
  let feeds: FakeFeedServer;
  beforeAll(async () => {
    app = await createTestApp();
    feeds = await startFeedServer({ "/tor": { body: `185.220.101.7\n${TOR_HOSTING_IP}\n` } });
    process.env.SERVICE_FEED_TOR_EXITS_URL = `${feeds.url}/tor`;
    const [res] = await refreshFeeds(app.db, { feed: "tor-exits" });
    if (!res?.ok || res.count !== 2) throw new Error(`tor-exits refresh failed: ${JSON.stringify(res)}`);
    await warmIpFeeds();
  }, 180_000);
  afterAll(async () => {
    delete process.env.SERVICE_FEED_TOR_EXITS_URL;
    await feeds?.close();
  });
  return { app: () => app };
}

/** `req` calls the app with a key (and a body when given); `ok` also expects 200, showing the body when it is not. */
export function keyedCalls(app: () => TestApp) {
  const req = (key: string, method: string, path: string, body?: unknown) =>
    app().request(method, path, { key, ...(body === undefined ? {} : { body }) });
  async function ok(key: string, method: string, path: string, body?: unknown) {
    const res = await req(key, method, path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }
  return { req, ok };
}
