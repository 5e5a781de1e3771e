// The shutdown timings are read by scripts/graceful-shutdown.mjs (plain JavaScript outside Next's bundle, installed
// before start-up) and checked at start by the settings registry (server/env/operate.ts). Each used to have its own
// defaults and its own rule: the script now reads them through the one module the registry takes its defaults from,
// so both agree on every value the settings check lets through, and on unset.
import { afterEach, describe, expect, it } from "vitest";
import { shutdownTimings } from "../../scripts/graceful-shutdown.mjs";
import { setting } from "../../server/env";

const NAMES = ["SERVICE_SHUTDOWN_DELAY_MS", "SERVICE_SHUTDOWN_GRACE_MS"] as const;
afterEach(() => {
  for (const name of NAMES) delete process.env[name];
});

describe("shutdown timings", () => {
  it("are what the settings registry reads, unset (its defaults) and set", () => {
    for (const raw of [undefined, "", " ", "1", "2500", "60000", " 1200 "]) {
      for (const name of NAMES) {
        if (raw === undefined) delete process.env[name];
        else process.env[name] = raw;
      }
      if (raw === "1") process.env.SERVICE_SHUTDOWN_DELAY_MS = "0";
      expect({ raw, ...shutdownTimings() }).toEqual({
        raw,
        delayMs: setting("SERVICE_SHUTDOWN_DELAY_MS"),
        graceMs: setting("SERVICE_SHUTDOWN_GRACE_MS"),
      });
    }
  });

  it("fall back to the registry's defaults for a value the settings check refuses (a signal before the check)", () => {
    // A grace of 0 ended every shutdown at once with exit 1; a delay of 0 is allowed.
    process.env.SERVICE_SHUTDOWN_GRACE_MS = "0";
    expect(() => setting("SERVICE_SHUTDOWN_GRACE_MS")).toThrow("it must be a whole number of at least 1");
    expect(shutdownTimings().graceMs).toBe(25_000);
    delete process.env.SERVICE_SHUTDOWN_GRACE_MS;
    for (const raw of ["abc", "-1", "1.5", "Infinity"]) {
      for (const name of NAMES) process.env[name] = raw;
      expect(() => setting("SERVICE_SHUTDOWN_DELAY_MS")).toThrow();
      for (const name of NAMES) delete process.env[name];
      const defaults = { delayMs: setting("SERVICE_SHUTDOWN_DELAY_MS"), graceMs: setting("SERVICE_SHUTDOWN_GRACE_MS") };
      for (const name of NAMES) process.env[name] = raw;
      expect({ raw, ...shutdownTimings() }).toEqual({ raw, ...defaults });
    }
  });
});
