// What POST /v1/go/links refuses: bad input (400 INVALID_REQUEST), destinations that are not public host names or
// are blocklisted (400 TARGET_FORBIDDEN), and creation beyond its own rate limits (429 with Retry-After).
import { beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../harness";
import { createLink, startLinksApp } from "./setup";

let app: TestApp;
beforeAll(async () => {
  app = await startLinksApp();
});

describe("input validation", () => {
  it.each([
    ["a missing url", {}],
    ["a relative url", { url: "/path" }],
    ["an ftp url", { url: "ftp://example.com/file" }],
    ["a javascript url", { url: "javascript:alert(1)" }],
    ["a data url", { url: "data:text/html,<script>alert(1)</script>" }],
    ["credentials in the url", { url: "https://user:pw@example.com/" }],
    ["a user name in the url", { url: "https://example.com@evil.example.net/" }],
    ["a url over 2048 characters", { url: `https://example.com/${"a".repeat(2040)}` }],
    ["an invalid host", { url: "https://exa mple.com/" }],
    ["an expiry in the past", { url: "https://example.com/", expires_at: "2020-01-01T00:00:00Z" }],
    ["an expiry that is not a timestamp", { url: "https://example.com/", expires_at: "tomorrow" }],
    ["an expiry without Z or an offset", { url: "https://example.com/", expires_at: "2099-01-31T10:00:00" }],
    ["an expiry on a day that does not exist", { url: "https://example.com/", expires_at: "2099-02-30" }],
    ["an expiry given as a number", { url: "https://example.com/", expires_at: 4102444800000 }],
  ])("refuses %s with 400 INVALID_REQUEST", async (_label, body) => {
    const res = await createLink(app, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "INVALID_REQUEST", message: expect.any(String) } });
  });

  it("refuses a body that is not JSON with 400 INVALID_REQUEST", async () => {
    const res = await createLink(app, "url=https://example.com/", {
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: "INVALID_REQUEST", message: expect.any(String) } });
  });
});

describe("destinations", () => {
  it.each([
    ["a private IPv4 literal", "http://10.0.0.5/admin"],
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/"],
    ["a loopback literal in another spelling", "http://0x7f.1/"],
    ["an IPv6 loopback literal", "http://[::1]:8080/"],
    ["a public IP literal", "https://93.184.216.34/"],
    ["localhost", "http://localhost:3000/"],
    ["a cloud metadata host name", "http://metadata.google.internal/computeMetadata/v1/"],
    ["a name resolving to a private address", "https://intranet.example.com/"],
    ["a name resolving to the metadata address", "https://meta.example.com/"],
    ["a name with one loopback address among public ones", "https://mixed.example.com/"],
    ["a domain on a blocklist", "https://evil.example.net/login"],
    // Found by fuzzing: every other route taking a URL refuses the ports browsers will not fetch (WHATWG "bad
    // port"), and a link to one sends every clicker to a page their browser refuses to open.
    ["port 0", "https://example.com:0/"],
    ["an SMTP port", "http://example.com:25/"],
    ["an SSH port", "https://example.com:22/login"],
  ])("refuses %s with 400 TARGET_FORBIDDEN and stores nothing", async (_label, url) => {
    const before = await app.db.link.count();
    const res = await createLink(app, { url });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: { code: "TARGET_FORBIDDEN", message: expect.stringMatching(/^Target refused: /) },
    });
    expect(await app.db.link.count()).toBe(before);
  });

  it("accepts a name that does not resolve (the service never connects to it)", async () => {
    const res = await createLink(app, { url: "https://not-registered-yet.example.com/" });
    expect(res.status).toBe(200);
    expect(res.body.safety.status).toBe("not_listed");
  });

  /** A link's safety when no list was asked: nothing listed, no source, no time, and why. */
  const skippedSafety = (reason: unknown) => ({
    status: "skipped",
    listed_on: [],
    sources: [],
    checked_at: null,
    reason,
  });

  it("reports a skipped check, not a clean one, for a special-use name no list was asked about", async () => {
    const res = await createLink(app, { url: "https://shop.alt/" });
    expect(res.status).toBe(200);
    expect(res.body.safety).toEqual(
      skippedSafety(expect.stringMatching(/^shop\.alt is under \.alt, a special-use name .*sent to no list/)),
    );
  });

  it("reports a skipped check when the blocklist check is turned off", async () => {
    process.env.SERVICE_LINKS_SAFETY_CHECK = "0";
    try {
      const res = await createLink(app, { url: "https://evil.example.net/allowed-when-off" });
      expect(res.status).toBe(200);
      expect(res.body.safety).toEqual(skippedSafety(expect.any(String)));
    } finally {
      delete process.env.SERVICE_LINKS_SAFETY_CHECK;
    }
  });
});

describe("creation rate limits", () => {
  it("limits a workspace's creations with 429 RATE_LIMITED and Retry-After, consuming no units", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    process.env.SERVICE_LINKS_KEY_RATE_LIMIT = "2";
    process.env.SERVICE_LINKS_RATE_WINDOW_SECONDS = "86400";
    try {
      const ok = [
        await createLink(app, { url: "https://example.com/rl1" }, { key: ws.apiKey }),
        await createLink(app, { url: "https://example.com/rl2" }, { key: ws.apiKey }),
      ];
      expect(ok.map((r) => r.status)).toEqual([200, 200]);
      const refused = await createLink(app, { url: "https://example.com/rl3" }, { key: ws.apiKey });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { code: "RATE_LIMITED", message: expect.any(String) } });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await app.db.link.count({ where: { scope: ws.workspaceId } })).toBe(2);
      expect(await app.used(ws.workspaceId)).toBe(0);
      const other = await app.seedWorkspace({ plans: ["free"] });
      expect((await createLink(app, { url: "https://example.com/rl3" }, { key: other.apiKey })).status).toBe(200);
    } finally {
      process.env.SERVICE_LINKS_KEY_RATE_LIMIT = "1000";
      delete process.env.SERVICE_LINKS_RATE_WINDOW_SECONDS;
    }
  });

  it("without SERVICE_TRUST_PROXY a forged X-Forwarded-For does not buy a fresh anonymous bucket", async () => {
    process.env.SERVICE_LINKS_ANON_RATE_LIMIT = "1";
    process.env.SERVICE_LINKS_RATE_WINDOW_SECONDS = "86400";
    try {
      const from = (ip: string) => ({ headers: { "X-Forwarded-For": ip } });
      expect((await createLink(app, { url: "https://example.com/anon-forged" }, from("203.0.113.1"))).status).toBe(200);
      const refused = await createLink(app, { url: "https://example.com/anon-forged" }, from("203.0.113.2"));
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { code: "RATE_LIMITED", message: expect.any(String) } });
      // One trusted proxy: only the entry it appended counts, so a forged entry to its left changes nothing.
      process.env.SERVICE_TRUST_PROXY = "1";
      expect(
        (await createLink(app, { url: "https://example.com/anon-forged" }, from("192.0.2.1, 198.51.100.20"))).status,
      ).toBe(200);
      expect(
        (await createLink(app, { url: "https://example.com/anon-forged" }, from("192.0.2.2, 198.51.100.20"))).status,
      ).toBe(429);
    } finally {
      process.env.SERVICE_LINKS_ANON_RATE_LIMIT = "1000";
      delete process.env.SERVICE_LINKS_RATE_WINDOW_SECONDS;
      delete process.env.SERVICE_TRUST_PROXY;
    }
  });

  it("limits anonymous creations per client address behind two trusted proxies", async () => {
    process.env.SERVICE_LINKS_ANON_RATE_LIMIT = "1";
    process.env.SERVICE_LINKS_RATE_WINDOW_SECONDS = "86400";
    process.env.SERVICE_TRUST_PROXY = "2";
    try {
      // The outer proxy appended the client's address, the inner one the outer proxy's.
      const from = (ip: string) => ({ headers: { "X-Forwarded-For": `${ip}, 10.0.0.1` } });
      expect((await createLink(app, { url: "https://example.com/anon-rl" }, from("198.51.100.7"))).status).toBe(200);
      const refused = await createLink(app, { url: "https://example.com/anon-rl" }, from("198.51.100.7"));
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: { code: "RATE_LIMITED", message: expect.any(String) } });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await createLink(app, { url: "https://example.com/anon-rl" }, from("198.51.100.8"))).status).toBe(200);
    } finally {
      process.env.SERVICE_LINKS_ANON_RATE_LIMIT = "1000";
      delete process.env.SERVICE_LINKS_RATE_WINDOW_SECONDS;
      delete process.env.SERVICE_TRUST_PROXY;
    }
  });
});
