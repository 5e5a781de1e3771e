// Starts the fake package sources once per test file, points the configuration at them, and gives every test
// fresh caches and healthy sources; the dependency scan's tests add a fake EPSS source (useFakeEpss).
import { afterAll, beforeAll, beforeEach } from "vitest";
import { getFeed } from "../../server/feeds/loader";
import { clearEpssScores } from "../../server/providers/epss";
import { clearUpstreamCache, resetUpstreamCalls } from "../../server/providers/packages/http";
import { clearOsvRecords } from "../../server/providers/packages/osv";
import { kevFeed } from "../../server/vulnerabilities/kev-feed";
import { startFakePackageSources, type FakePackageSources } from "../fakes/packages/server";
import { startFakeEpss, type FakeEpss } from "./scan-fixtures/fake-epss";

export function useFakePackageSources(): { current: FakePackageSources } {
  const holder = {} as { current: FakePackageSources };
  beforeAll(async () => {
    holder.current = await startFakePackageSources();
    Object.assign(process.env, holder.current.env);
    // The feed loader opens the database on first use (it looks for a refreshed catalog there); doing that here,
    // once, keeps the embedded database's start-up out of the timed upstream calls of the tests.
    await getFeed(kevFeed);
  });
  afterAll(async () => {
    for (const k of Object.keys(holder.current.env)) delete process.env[k];
    await holder.current.close();
  });
  beforeEach(() => {
    const fake = holder.current;
    fake.down.clear();
    fake.hang.clear();
    fake.downPackages.clear();
    fake.stallOncePackages.clear();
    for (const k of Object.keys(fake.requests) as Array<keyof typeof fake.requests>) fake.requests[k] = 0;
    clearUpstreamCache();
    clearOsvRecords();
    clearEpssScores();
    resetUpstreamCalls();
    delete process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS;
  });
  return holder;
}

/** A fake EPSS source for the file, configured as SERVICE_EPSS_URL; every test starts with it up and unasked. */
export function useFakeEpss(): { current: FakeEpss } {
  const holder = {} as { current: FakeEpss };
  beforeAll(async () => {
    holder.current = await startFakeEpss();
    process.env.SERVICE_EPSS_URL = holder.current.url;
  });
  afterAll(async () => {
    delete process.env.SERVICE_EPSS_URL;
    await holder.current.close();
  });
  beforeEach(() => {
    holder.current.down = false;
    holder.current.asked.length = 0;
    process.env.SERVICE_EPSS_URL = holder.current.url;
  });
  return holder;
}
