import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { getSubdomainsOrThrow } from "../../server/domain/subdomains";
import { ctEntry, startCtServer, type FakeCtServer } from "../fakes/ct-server";

let ct: FakeCtServer;
const env = { ...process.env };

beforeAll(async () => {
  await getDb(); // a fresh embedded database takes seconds to create: not inside a test's time budget
  ct = await startCtServer({
    "example.com": [
      ctEntry(["example.com", "www.example.com"], "2023-01-10"),
      ctEntry(["www.example.com", "*.api.example.com"], "2024-06-01"),
      ctEntry(["mail.example.com", "evil.com"], "2022-03-05"),
      ctEntry(["WWW.Example.com"], "2021-02-01"),
    ],
    "example.co.uk": [ctEntry(["shop.example.co.uk"], "2024-01-01")],
  });
  process.env.SERVICE_CT_URL = ct.url;
  process.env.SERVICE_CT_TIMEOUT_MS = "1500";
});

afterAll(async () => {
  process.env = env;
  await ct.close();
});

describe("GET /domain/{domain}/subdomains domain function", () => {
  it("lists deduplicated names under the registrable apex with first and last seen", async () => {
    const r = await getSubdomainsOrThrow({ domain: "a.b.www.example.com", limit: 100, offset: 0 });
    expect(r.apex).toBe("example.com");
    expect(r.domain).toBe("a.b.www.example.com");
    expect(ct.queries.at(-1)).toBe("%.example.com");
    expect(r.retained).toBe(false);
    expect(r.unavailableReason).toBeNull();
    expect(r.subdomains.map((s) => s.name)).toEqual([
      "api.example.com",
      "example.com",
      "mail.example.com",
      "www.example.com",
    ]);
    const www = r.subdomains.find((s) => s.name === "www.example.com")!;
    expect(www).toMatchObject({
      certificates: 3,
      firstSeen: "2021-02-01T00:00:00.000Z",
      lastSeen: "2024-06-01T00:00:00.000Z",
      wildcard: false,
    });
    expect(r.subdomains.find((s) => s.name === "api.example.com")!.wildcard).toBe(true);
    expect(r.total).toBe(4);
    expect(r.sources[0]).toMatchObject({ name: "certificate-transparency", status: "ok" });
    expect(r.note).toMatch(/historical/);
  });

  it("pages with limit and offset", async () => {
    const r = await getSubdomainsOrThrow({ domain: "example.com", limit: 2, offset: 1 });
    expect(r.subdomains.map((s) => s.name)).toEqual(["example.com", "mail.example.com"]);
    expect(r.total).toBe(4);
    expect({ limit: r.limit, offset: r.offset }).toEqual({ limit: 2, offset: 1 });
  });

  it("uses the public suffix list for the apex", async () => {
    const r = await getSubdomainsOrThrow({ domain: "www.shop.example.co.uk", limit: 10, offset: 0 });
    expect(r.apex).toBe("example.co.uk");
    expect(r.subdomains.map((s) => s.name)).toEqual(["shop.example.co.uk"]);
  });

  it("serves the retained response, marked, when the source is down", async () => {
    const fresh = await getSubdomainsOrThrow({ domain: "example.com", limit: 100, offset: 0 });
    ct.mode = "down";
    try {
      const r = await getSubdomainsOrThrow({ domain: "www.example.com", limit: 100, offset: 0 });
      expect(r.retained).toBe(true);
      expect(r.fetchedAt).toBe(fresh.fetchedAt);
      expect(r.unavailableReason).toMatch(/HTTP 502/);
      expect(r.subdomains).toEqual(fresh.subdomains);
      expect(r.sources[0]!.status).toBe("unavailable");
    } finally {
      ct.mode = "ok";
    }
  });

  it("is 503 UPSTREAM_UNAVAILABLE when the source is down and nothing was retained", async () => {
    ct.mode = "hang";
    try {
      await expect(
        getSubdomainsOrThrow({ domain: "never-seen.example.net", limit: 100, offset: 0 }),
      ).rejects.toMatchObject({
        appCode: "UPSTREAM_UNAVAILABLE",
        message: expect.stringMatching(/no answer within 1500 ms/),
      });
    } finally {
      ct.mode = "ok";
    }
  });

  it("says a source it cannot connect to in words, not the runtime's exception text", async () => {
    // A port that was just free: nothing listens there, so the connection is refused.
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, "127.0.0.1", resolve));
    const { port } = free.address() as AddressInfo;
    await new Promise((resolve) => free.close(resolve));
    process.env.SERVICE_CT_URL = `http://127.0.0.1:${port}`;
    try {
      const err = await getSubdomainsOrThrow({ domain: "refused.example.net", limit: 1, offset: 0 }).catch((e) => e);
      expect(err).toMatchObject({ appCode: "UPSTREAM_UNAVAILABLE" });
      // Before: "unavailable (cannot connect (fetch failed))", shown as is by the dashboard's console.
      expect(err.message).toContain("unavailable (connection failed)");
      expect(err.message).not.toMatch(/fetch failed/i);
    } finally {
      process.env.SERVICE_CT_URL = ct.url;
    }
  });

  it("treats an unreadable answer as unavailable", async () => {
    ct.mode = "garbage";
    try {
      await expect(getSubdomainsOrThrow({ domain: "other.example.org", limit: 1, offset: 0 })).rejects.toMatchObject({
        appCode: "UPSTREAM_UNAVAILABLE",
      });
    } finally {
      ct.mode = "ok";
    }
  });

  it("refuses a public suffix as input", async () => {
    await expect(getSubdomainsOrThrow({ domain: "co.uk", limit: 1, offset: 0 })).rejects.toMatchObject({
      appCode: "INVALID_REQUEST",
    });
  });
});

describe("no upstream is waited for more than 5 s by default (issue 22, item 19)", () => {
  it("a CT source that never answers is a 503 with Retry-After within about 5 s", async () => {
    delete process.env.SERVICE_CT_TIMEOUT_MS;
    ct.mode = "hang";
    try {
      const started = Date.now();
      const err = await getSubdomainsOrThrow({ domain: "never-retained.com", limit: 10, offset: 0 }).catch((e) => e);
      const waited = Date.now() - started;
      expect(err.appCode).toBe("UPSTREAM_UNAVAILABLE");
      expect(err.headers["Retry-After"]).toMatch(/^\d+$/);
      expect(waited).toBeGreaterThanOrEqual(4_500);
      expect(waited).toBeLessThan(6_500);
    } finally {
      ct.mode = "ok";
      process.env.SERVICE_CT_TIMEOUT_MS = "1500";
    }
  }, 15_000);
});
