// Once a production server has started, its environment is fixed (server/env/source.ts fixEnvironment): each
// variable is read once and each setting parsed once, except lists and objects, and a variable the service writes
// itself is read again. An isolated file of its own (vitest.config.ts): fixing is kept on globalThis for the rest of
// the process, so the file also undoes it when it ends.
import { afterAll, describe, expect, it, vi } from "vitest";
import {
  adoptNpmConfigRegistry,
  configureNextAuthEnvironment,
  fixEnvironment,
  npmConfigRegistry,
  setting,
} from "../../server/env";
import { fixedSettingValues, rawValue } from "../../server/env/source";

const saved = {
  timeout: process.env.SERVICE_UPSTREAM_TIMEOUT_MS,
  dns: process.env.SERVICE_DNS_SERVERS,
  registry: process.env.npm_config_registry,
  unread: process.env.SERVICE_TEST_UNREAD_VARIABLE,
  nextAuthUrl: process.env.NEXTAUTH_URL,
  trustHost: process.env.AUTH_TRUST_HOST,
};
delete process.env.NEXTAUTH_URL;
const restore = (name: string, value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};
afterAll(() => {
  delete (globalThis as { __serviceFixedEnvironment?: unknown }).__serviceFixedEnvironment;
  restore("SERVICE_UPSTREAM_TIMEOUT_MS", saved.timeout);
  restore("SERVICE_DNS_SERVERS", saved.dns);
  restore("npm_config_registry", saved.registry);
  restore("SERVICE_TEST_UNREAD_VARIABLE", saved.unread);
  restore("NEXTAUTH_URL", saved.nextAuthUrl);
  restore("AUTH_TRUST_HOST", saved.trustHost);
});

describe("a fixed environment", () => {
  it("reads every change while not fixed, as tests need", () => {
    expect(fixedSettingValues()).toBeUndefined();
    process.env.SERVICE_UPSTREAM_TIMEOUT_MS = "1234";
    expect(setting("SERVICE_UPSTREAM_TIMEOUT_MS")).toBe(1234);
    process.env.SERVICE_UPSTREAM_TIMEOUT_MS = "2345";
    expect(setting("SERVICE_UPSTREAM_TIMEOUT_MS")).toBe(2345);
  });

  it("keeps each variable and setting as first read once fixed, lists excepted, and forgets what the service writes", () => {
    process.env.SERVICE_DNS_SERVERS = "192.0.2.1";
    fixEnvironment();
    expect(fixedSettingValues()).toBeInstanceOf(Map);
    expect(setting("SERVICE_UPSTREAM_TIMEOUT_MS")).toBe(2345);
    process.env.SERVICE_UPSTREAM_TIMEOUT_MS = "3456";
    expect(setting("SERVICE_UPSTREAM_TIMEOUT_MS")).toBe(2345);
    expect(rawValue("SERVICE_UPSTREAM_TIMEOUT_MS")).toBe("2345");

    // A variable first read after fixing is read then, and kept.
    process.env.SERVICE_TEST_UNREAD_VARIABLE = "first";
    expect(rawValue("SERVICE_TEST_UNREAD_VARIABLE")).toBe("first");
    process.env.SERVICE_TEST_UNREAD_VARIABLE = "second";
    expect(rawValue("SERVICE_TEST_UNREAD_VARIABLE")).toBe("first");

    // A list is parsed on each read into its own array, so one caller's change never reaches another.
    const servers = setting("SERVICE_DNS_SERVERS");
    expect(servers).toEqual(["192.0.2.1"]);
    servers.push("198.51.100.1");
    expect(setting("SERVICE_DNS_SERVERS")).toEqual(["192.0.2.1"]);

    // What the service writes itself is read again: a variable, and a setting.
    expect(rawValue("npm_config_registry")).toBe(saved.registry);
    adoptNpmConfigRegistry("http://registry.invalid/");
    expect(rawValue("npm_config_registry")).toBe("http://registry.invalid/");
    expect(npmConfigRegistry()).toBe("http://registry.invalid/");
    expect(setting("NEXTAUTH_URL")).toBeNull();
    configureNextAuthEnvironment("http://dashboard.invalid");
    expect(setting("NEXTAUTH_URL")).toMatch(/^http:\/\/dashboard\.invalid/);
  });

  it("reaches every copy of the settings module, as the start-up's and the routes' bundles each have one", async () => {
    vi.resetModules();
    const copy = await import("../../server/env/source");
    const registry = await import("../../server/env/registry");
    expect(copy.fixedSettingValues()).toBe(fixedSettingValues());
    process.env.SERVICE_UPSTREAM_TIMEOUT_MS = "4567";
    expect(registry.setting("SERVICE_UPSTREAM_TIMEOUT_MS")).toBe(2345);
    expect(copy.rawValue("SERVICE_UPSTREAM_TIMEOUT_MS")).toBe("2345");
  });
});
