// Shipped data is loaded once per process, whichever copy of a module loads it. The production build evaluates a
// module once per route bundle and once more for start-up, so start-up's "load the data before the first request"
// only helps /v1 when the route's copy finds what start-up's copy loaded: before, the first geolocation after a
// ready start read the 63 MB database again synchronously (about 0.3 s) and the first combined IP lookup took 2 s.
// A second copy of a module is made here the way the build makes one: a fresh module registry (vi.resetModules).
import { afterAll, expect, it, vi } from "vitest";

afterAll(async () => {
  const { closeDb } = await import("../../server/db/client");
  await closeDb();
});

it("hands a second copy of a module the value the first one made, made once", async () => {
  const { processWide } = await import("../../server/process-wide");
  let made = 0;
  const first = processWide("test-value", () => ({ made: ++made }));
  vi.resetModules();
  const again = await import("../../server/process-wide");
  const second = again.processWide("test-value", () => ({ made: ++made }));
  expect(second).toBe(first);
  expect(made).toBe(1);
  // Another name is another value.
  expect(again.processWide("test-other", () => ({ made: ++made }))).not.toBe(first);
});

it("answers geolocation in a second copy of the module from the database start-up loaded", async () => {
  const first = await import("../../server/geo/database");
  await first.preloadGeoReader(4);
  const loaded = first.geoReader(4);
  vi.resetModules();
  const second = await import("../../server/geo/database");
  expect(second).not.toBe(first);
  expect(second.geoReader(4)).toBe(loaded);
  const { lookupGeo } = await import("../../server/geo/lookup");
  expect(lookupGeo("8.8.8.8").country?.code).toBe("US");
});

it("answers a feed in a second copy of the loader from the data the first copy loaded", async () => {
  const firstLoader = await import("../../server/feeds/loader");
  const { torExitsFeed: firstDef } = await import("../../server/feeds/definitions/tor-exits");
  const state = await firstLoader.getFeed(firstDef);
  expect(state.count).toBeGreaterThan(0);
  vi.resetModules();
  const secondLoader = await import("../../server/feeds/loader");
  const { torExitsFeed: secondDef } = await import("../../server/feeds/definitions/tor-exits");
  expect(secondLoader).not.toBe(firstLoader);
  expect(secondDef).not.toBe(firstDef);
  // The same state object: not parsed again from the shipped file, nor read again from the database.
  expect(secondLoader.getFeedSync(secondDef)).toBe(state);
  expect(await secondLoader.getFeed(secondDef)).toBe(state);
});
