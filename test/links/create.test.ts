// POST /v1/go/links through the REST API: optional key, scopes, reuse, and no lookup units.
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../../server/keys/keys";
import { setPlans } from "../../server/workspaces/workspaces";
import type { TestApp } from "../harness";
import { createLink, PUBLIC_BASE, startLinksApp } from "./setup";

let app: TestApp;
beforeAll(async () => {
  app = await startLinksApp();
});

const SAFETY_CLEAN = {
  status: "not_listed",
  listed_on: [],
  sources: ["dbl.test"],
  checked_at: expect.any(String),
  reason: null,
};

describe("creating a link", () => {
  it("creates an anonymous link when no key header is sent", async () => {
    const res = await createLink(app, { url: "https://Example.COM:443/Some/Path?b=2&a=1#Top" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^lnk_/),
      slug: expect.stringMatching(/^[A-Za-z0-9]{7}$/),
      short_url: `${PUBLIC_BASE}/go/${res.body.slug}`,
      url: "https://example.com/Some/Path?b=2&a=1#Top",
      normalized_url: "https://example.com/Some/Path?b=2&a=1",
      expires_at: null,
      created_at: expect.any(String),
      reused: false,
      scope: "anonymous",
      safety: SAFETY_CLEAN,
    });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const row = await app.db.link.findUnique({ where: { slug: res.body.slug } });
    expect(row).toMatchObject({ scope: "anon", workspaceId: null, clicks: 0 });
  });

  it("creates a workspace link with a valid key, in either header, consuming no units and sending no quota headers", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const bearer = await createLink(app, { url: "https://www.example.org/bearer" }, { key: ws.apiKey });
    const xKey = await createLink(
      app,
      { url: "https://www.example.org/x-api-key" },
      { key: ws.apiKey, keyHeader: "x-api-key" },
    );
    for (const res of [bearer, xKey]) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ scope: "workspace", reused: false, expires_at: null });
      expect([...res.headers.keys()].filter((h) => h.startsWith("x-service-quota"))).toEqual([]);
    }
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
    const row = await app.db.link.findUnique({ where: { slug: bearer.body.slug } });
    expect(row).toMatchObject({ scope: ws.workspaceId, workspaceId: ws.workspaceId });
    const events = await app.db.event.findMany({ where: { workspaceId: ws.workspaceId, type: "link.created" } });
    expect(events).toHaveLength(2);
  });

  it("builds short_url on the request's origin when SERVICE_PUBLIC_URL is not set, from X-Forwarded-* only behind a trusted proxy", async () => {
    delete process.env.SERVICE_PUBLIC_URL;
    const forwarded = { "X-Forwarded-Host": "links.example.org", "X-Forwarded-Proto": "https" };
    try {
      // No SERVICE_TRUST_PROXY: the forwarded headers are anyone's to send and are ignored; the Host header counts.
      const direct = await createLink(
        app,
        { url: "https://example.com/origin" },
        { headers: { ...forwarded, Host: "api.example.net:8080" } },
      );
      expect(direct.body.short_url).toBe(`http://api.example.net:8080/go/${direct.body.slug}`);
      // A Host that is no authority (port past 65535) names no origin: the short link is not built on it.
      const malformed = await createLink(
        app,
        { url: "https://example.com/origin-2" },
        { headers: { Host: "x:99999" } },
      );
      expect(malformed.status).toBe(200);
      expect(malformed.body.short_url).toMatch(new RegExp(`^http://localhost:\\d+/go/${malformed.body.slug}$`));
      process.env.SERVICE_TRUST_PROXY = "1";
      const proxied = await createLink(app, { url: "https://example.com/origin" }, { headers: forwarded });
      expect(proxied.body.short_url).toBe(`https://links.example.org/go/${proxied.body.slug}`);
    } finally {
      process.env.SERVICE_PUBLIC_URL = PUBLIC_BASE;
      delete process.env.SERVICE_TRUST_PROXY;
    }
  });

  it("keeps an expiry and reports it", async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await createLink(app, { url: "https://example.com/soon", expires_at: expiresAt });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ expires_at: expiresAt, reused: false });
  });

  it("reads expires_at as every date field is read: a date is midnight UTC, an offset is applied", async () => {
    // README "Requests the API reads": a date (2027-01-31) or a date-time with Z or an offset, in every date field.
    const date = await createLink(app, { url: "https://example.com/by-date", expires_at: "2099-01-31" });
    expect(date.status).toBe(200);
    expect(date.body).toMatchObject({ expires_at: "2099-01-31T00:00:00.000Z", reused: false });
    const offset = await createLink(app, {
      url: "https://example.com/by-offset",
      expires_at: "2099-01-31T10:00:00+02:00",
    });
    expect(offset.status).toBe(200);
    expect(offset.body).toMatchObject({ expires_at: "2099-01-31T08:00:00.000Z" });
    const row = await app.db.link.findUnique({ where: { slug: date.body.slug } });
    expect(row?.expiresAt?.toISOString()).toBe("2099-01-31T00:00:00.000Z");
  });
});

describe("a supplied key must authenticate (never an anonymous fallback)", () => {
  it.each([
    ["an unknown key", { key: "svc_live_" + "A".repeat(43) }],
    ["a malformed key", { key: "not-a-key" }],
    ["an unknown X-API-Key", { key: "not-a-key", keyHeader: "x-api-key" as const }],
    ["an empty bearer", { key: "" }],
    ["a non-bearer Authorization header", { headers: { Authorization: "Basic dXNlcjpwYXNz" } }],
    ["an empty X-API-Key", { headers: { "X-API-Key": "" } }],
  ])("refuses %s with 401 UNAUTHORIZED and creates nothing", async (_label, opts) => {
    const before = await app.db.link.count();
    const res = await createLink(app, { url: "https://example.com/keyed" }, opts);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    expect(await app.db.link.count()).toBe(before);
  });

  it("refuses a revoked key with 401 and a key paused beyond the workspace key limit with 403 API_KEY_PAUSED", async () => {
    const ws = await app.seedWorkspace({ plans: ["lookups_growth"] });
    const second = await createApiKey(app.db, { workspaceId: ws.workspaceId });
    await setPlans(app.db, { workspaceId: ws.workspaceId, plans: ["free"] }); // one key allowed: the newer one pauses
    const paused = await createLink(app, { url: "https://example.com/paused" }, { key: second.plaintext });
    expect(paused.status).toBe(403);
    expect(paused.body).toEqual({ error: { code: "API_KEY_PAUSED", message: expect.any(String) } });
    await app.db.apiKey.update({ where: { id: ws.apiKeyId }, data: { status: "revoked" } });
    const revoked = await createLink(app, { url: "https://example.com/revoked" }, { key: ws.apiKey });
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    expect(await app.db.link.count({ where: { scope: ws.workspaceId } })).toBe(0);
  });
});

describe("reuse of an identical normalized destination", () => {
  it("reuses an active, non-expiring link in the same scope and never across scopes", async () => {
    const first = await createLink(app, { url: "HTTPS://EXAMPLE.COM/reuse?x=1#one" });
    const again = await createLink(app, { url: "https://example.com:443/reuse?x=1" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, reused: true, safety: SAFETY_CLEAN });

    const a = await app.seedWorkspace({ plans: ["free"] });
    const b = await app.seedWorkspace({ plans: ["free"] });
    const inA = await createLink(app, { url: "https://example.com/reuse?x=1" }, { key: a.apiKey });
    const inAagain = await createLink(app, { url: "https://example.com/reuse?x=1#two" }, { key: a.apiKey });
    const inB = await createLink(app, { url: "https://example.com/reuse?x=1" }, { key: b.apiKey });
    expect(inA.body).toMatchObject({ reused: false, scope: "workspace" });
    expect(inAagain.body).toMatchObject({ reused: true, slug: inA.body.slug, url: "https://example.com/reuse?x=1" });
    expect(inB.body.reused).toBe(false);
    expect(new Set([first.body.slug, inA.body.slug, inB.body.slug]).size).toBe(3);
  });

  it("keeps path and query as given: a different case or parameter order is another destination", async () => {
    const lower = await createLink(app, { url: "https://example.com/case?a=1&b=2" });
    const upper = await createLink(app, { url: "https://example.com/CASE?a=1&b=2" });
    const swapped = await createLink(app, { url: "https://example.com/case?b=2&a=1" });
    expect(upper.body.reused).toBe(false);
    expect(swapped.body.reused).toBe(false);
    expect(new Set([lower.body.slug, upper.body.slug, swapped.body.slug]).size).toBe(3);
  });

  it("never reuses a link with an expiry, nor gives one to a request that sets an expiry", async () => {
    const expires_at = new Date(Date.now() + 86_400_000).toISOString();
    const expiring = await createLink(app, { url: "https://example.com/expiry", expires_at });
    const plain = await createLink(app, { url: "https://example.com/expiry" });
    const plainAgain = await createLink(app, { url: "https://example.com/expiry" });
    const expiringAgain = await createLink(app, { url: "https://example.com/expiry", expires_at });
    expect(plain.body.reused).toBe(false);
    expect(plain.body.slug).not.toBe(expiring.body.slug);
    expect(plainAgain.body).toMatchObject({ reused: true, slug: plain.body.slug });
    expect(expiringAgain.body.reused).toBe(false);
    expect(expiringAgain.body.slug).not.toBe(expiring.body.slug);
  });

  it("does not reuse a disabled or expired link", async () => {
    const first = await createLink(app, { url: "https://example.com/disabled" });
    await app.db.link.update({ where: { slug: first.body.slug }, data: { disabledAt: new Date() } });
    const second = await createLink(app, { url: "https://example.com/disabled" });
    expect(second.body.reused).toBe(false);
    expect(second.body.slug).not.toBe(first.body.slug);
  });

  it("gives one link to identical requests made at the same time", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => createLink(app, { url: "https://example.com/race" })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(results.map((r) => r.body.slug)).size).toBe(1);
    expect(results.filter((r) => !r.body.reused)).toHaveLength(1);
  });
});
