// Which sign-in the dashboard offers, and where the session secret comes from, by environment.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signInMode } from "./config";

const OIDC = {
  SERVICE_OIDC_ISSUER: "http://127.0.0.1:9/issuer/",
  SERVICE_OIDC_CLIENT_ID: "dash",
  SERVICE_OIDC_CLIENT_SECRET: "s3cret",
};

function withEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) vi.stubEnv(k, v as string);
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("sign-in mode", () => {
  it("uses the OpenID Connect provider when it is configured, even in production", () => {
    withEnv({ NODE_ENV: "production", ...OIDC });
    const mode = signInMode();
    expect(mode.kind).toBe("oidc");
    expect(mode.kind === "oidc" && mode.oidc.issuer).toBe("http://127.0.0.1:9/issuer");
  });

  it("offers the development sign-in outside production when no provider is configured", () => {
    withEnv({
      NODE_ENV: "development",
      SERVICE_OIDC_ISSUER: "",
      SERVICE_OIDC_CLIENT_ID: "",
      SERVICE_OIDC_CLIENT_SECRET: "",
      SERVICE_DEV_SIGNIN: "",
    });
    expect(signInMode()).toEqual({ kind: "dev", explicit: false });
  });

  it("never falls back to the development sign-in in production", () => {
    withEnv({
      NODE_ENV: "production",
      SERVICE_OIDC_ISSUER: "",
      SERVICE_OIDC_CLIENT_ID: "",
      SERVICE_OIDC_CLIENT_SECRET: "",
      SERVICE_DEV_SIGNIN: "",
    });
    const mode = signInMode();
    expect(mode.kind).toBe("unavailable");
    expect(mode.kind === "unavailable" && mode.reason).toContain("SERVICE_OIDC_ISSUER");
  });

  it("enables the development sign-in in production only when SERVICE_DEV_SIGNIN=1 says so", () => {
    withEnv({
      NODE_ENV: "production",
      SERVICE_OIDC_ISSUER: "",
      SERVICE_OIDC_CLIENT_ID: "",
      SERVICE_OIDC_CLIENT_SECRET: "",
      SERVICE_DEV_SIGNIN: "1",
    });
    expect(signInMode()).toEqual({ kind: "dev", explicit: true });
  });

  it("rejects a half-configured provider naming the missing variables", () => {
    withEnv({ ...OIDC, SERVICE_OIDC_CLIENT_SECRET: "" });
    expect(() => signInMode()).toThrow(/SERVICE_OIDC_CLIENT_SECRET/);
  });
});

describe("session secret", () => {
  it("is required in production", async () => {
    withEnv({ NODE_ENV: "production", NEXTAUTH_SECRET: "", AUTH_SECRET: "" });
    const { authSecret } = await import("./secret");
    expect(() => authSecret()).toThrow(/NEXTAUTH_SECRET is required/);
  });

  it("is generated once in development and kept in the data folder", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "auth-secret-"));
    try {
      withEnv({ NODE_ENV: "development", NEXTAUTH_SECRET: "", AUTH_SECRET: "", SERVICE_DATA_DIR: dir });
      const first = (await import("./secret")).authSecret();
      expect(first.length).toBeGreaterThanOrEqual(40);
      expect(readFileSync(path.join(dir, "nextauth-secret"), "utf8").trim()).toBe(first);
      vi.resetModules();
      expect((await import("./secret")).authSecret()).toBe(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
