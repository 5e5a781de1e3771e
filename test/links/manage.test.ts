// A workspace's own links: GET /v1/go/links (newest first, clicks, safety verdict, cursor paging) and
// POST /v1/go/links/{id}/disable (410 at the short URL from then on, a `link.disabled` event with its actor), through
// the REST API with any key of the workspace and through the dashboard's tRPC endpoint for owners and members. Unmetered;
// another workspace's or an anonymous link is not found.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET } from "../../app/go/[slug]/route";
import { createApiKey } from "../../server/keys/keys";
import { call, ownerAndMember } from "../dashboard/call";
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

const follow = (slug: string) =>
  GET(new Request(`http://127.0.0.1:3000/go/${slug}`), { params: Promise.resolve({ slug }) });
const list = (key: string, query = "") => app.request("GET", `/v1/go/links${query}`, { key });
const disable = (key: string, id: string) =>
  app.request("POST", `/v1/go/links/${encodeURIComponent(id)}/disable`, { key, body: {} });

async function linkOf(key: string, url: string) {
  const res = await createLink(app, { url }, { key });
  expect(res.status).toBe(200);
  return res.body as { id: string; slug: string };
}

describe("GET /v1/go/links", () => {
  it("lists the workspace's links newest first with clicks, status and the kept safety verdict, at no unit cost", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const first = await linkOf(ws.apiKey, "https://example.com/first");
    const second = await createLink(
      app,
      { url: "https://www.example.org/second", expires_at: new Date(Date.now() + 3_600_000).toISOString() },
      { key: ws.apiKey },
    );
    await follow(first.slug);
    await follow(first.slug);

    const res = await list(ws.apiKey);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.body).toEqual({
      items: [
        {
          id: second.body.id,
          slug: second.body.slug,
          short_url: `${PUBLIC_BASE}/go/${second.body.slug}`,
          url: "https://www.example.org/second",
          status: "active",
          clicks: 0,
          safety: SAFETY_CLEAN,
          created_at: second.body.created_at,
          expires_at: second.body.expires_at,
          disabled_at: null,
        },
        expect.objectContaining({
          id: first.id,
          url: "https://example.com/first",
          status: "active",
          clicks: 2,
          safety: SAFETY_CLEAN,
          expires_at: null,
        }),
      ],
      nextCursor: null,
      next_cursor: null,
    });
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.ledgerCount(ws.workspaceId)).toBe(0);
  });

  it("pages with limit and cursor", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.unshift((await linkOf(ws.apiKey, `https://example.com/page-${i}`)).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 5; pages++) {
      const res = await list(ws.apiKey, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((l: { id: string }) => l.id));
      cursor = res.body.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(made);
    const bad = await list(ws.apiKey, "?limit=0");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("INVALID_REQUEST");
  });

  it("shows an expired link as expired, and an older link without a kept verdict with safety null", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const expiring = await createLink(
      app,
      { url: "https://example.com/soon", expires_at: new Date(Date.now() + 60_000).toISOString() },
      { key: ws.apiKey },
    );
    await app.db.link.update({ where: { id: expiring.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await app.db.$executeRawUnsafe(`UPDATE "Link" SET "safety" = NULL WHERE "id" = $1`, expiring.body.id);
    const res = await list(ws.apiKey);
    expect(res.body.items).toEqual([
      expect.objectContaining({ id: expiring.body.id, status: "expired", safety: null }),
    ]);
  });

  it("never lists anonymous links or another workspace's links", async () => {
    const a = await app.seedWorkspace({ plans: ["suite_business"] });
    const b = await app.seedWorkspace({ plans: ["suite_business"] });
    await linkOf(a.apiKey, "https://example.com/only-a");
    await createLink(app, { url: "https://example.com/anonymous" });
    const res = await list(b.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], nextCursor: null, next_cursor: null });
    // A cursor taken from another workspace reveals nothing of it: it names no link of this one, as a made-up one.
    const other = (await list(a.apiKey)).body.items[0].id;
    for (const cursor of [other, "lnk_made_up"]) {
      const res = await list(b.apiKey, `?cursor=${cursor}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: "INVALID_REQUEST",
        message: expect.stringMatching(
          /^cursor: unknown cursor \(its item may have been deleted since\); use the next_cursor of the previous page/,
        ),
      });
    }
  });

  it("accepts any active key of the workspace", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const second = await createApiKey(app.db, { workspaceId: ws.workspaceId });
    const link = await linkOf(ws.apiKey, "https://example.com/any-key");
    const res = await list(second.plaintext);
    expect(res.body.items.map((l: { id: string }) => l.id)).toEqual([link.id]);
  });
});

describe("POST /v1/go/links/{id}/disable", () => {
  it("disables the link: 410 at the short URL from then on, one link.disabled event with the key as actor, no units", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const link = await linkOf(ws.apiKey, "https://example.com/to-disable");
    expect((await follow(link.slug)).status).toBe(302);

    const res = await disable(ws.apiKey, link.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: link.id,
      status: "disabled",
      clicks: 1,
      disabled_at: expect.any(String),
      url: "https://example.com/to-disable",
    });

    const gone = await follow(link.slug);
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual({ error: { code: "LINK_DISABLED", message: "This link has been disabled." } });
    expect((await list(ws.apiKey)).body.items[0]).toMatchObject({ id: link.id, status: "disabled", clicks: 1 });

    const events = await app.db.event.findMany({ where: { workspaceId: ws.workspaceId, type: "link.disabled" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actor: `api_key:${ws.apiKeyId}`,
      domain: "example.com",
      requestId: res.headers.get("x-request-id"),
    });
    expect(events[0].data).toMatchObject({
      link_id: link.id,
      slug: link.slug,
      url: "https://example.com/to-disable",
      clicks: 1,
    });
    const found = await app.request("GET", "/v1/events?type=link.disabled", { key: ws.apiKey });
    expect(found.body.items).toHaveLength(1);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("is idempotent: disabling a disabled link changes nothing and records no second event", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const link = await linkOf(ws.apiKey, "https://example.com/twice");
    const once = await disable(ws.apiKey, link.id);
    const twice = await disable(ws.apiKey, link.id);
    expect(twice.status).toBe(200);
    expect(twice.body.disabled_at).toBe(once.body.disabled_at);
    expect(await app.db.event.count({ where: { workspaceId: ws.workspaceId, type: "link.disabled" } })).toBe(1);
  });

  it("enables a disabled link again: it redirects, one link.enabled event, no units; enabling an active link changes nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const link = await linkOf(ws.apiKey, "https://example.com/back-on");
    await disable(ws.apiKey, link.id);
    expect((await follow(link.slug)).status).toBe(410);
    const enable = () => app.request("POST", `/v1/go/links/${link.id}/enable`, { key: ws.apiKey, body: {} });
    const res = await enable();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: link.id, status: "active", disabled_at: null });
    expect((await follow(link.slug)).status).toBe(302);
    expect((await enable()).status).toBe(200);
    const events = await app.db.event.findMany({ where: { workspaceId: ws.workspaceId, type: "link.enabled" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: `api_key:${ws.apiKeyId}` });
    const other = await app.seedWorkspace({ plans: ["free"] });
    const theirs = await app.request("POST", `/v1/go/links/${link.id}/enable`, { key: other.apiKey, body: {} });
    expect(theirs.status).toBe(404);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("never reuses a disabled link for the same destination", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const link = await linkOf(ws.apiKey, "https://example.com/reuse-after-disable");
    await disable(ws.apiKey, link.id);
    const again = await createLink(app, { url: "https://example.com/reuse-after-disable" }, { key: ws.apiKey });
    expect(again.body).toMatchObject({ reused: false });
    expect(again.body.id).not.toBe(link.id);
    expect((await follow(again.body.slug)).status).toBe(302);
  });

  it("is 404 NOT_FOUND for another workspace's link, an anonymous link or an unknown id, and changes nothing", async () => {
    const a = await app.seedWorkspace({ plans: ["suite_business"] });
    const b = await app.seedWorkspace({ plans: ["suite_business"] });
    const theirs = await linkOf(a.apiKey, "https://example.com/theirs");
    const anonymous = (await createLink(app, { url: "https://example.com/anon-disable" })).body;
    for (const id of [theirs.id, anonymous.id, "lnk_doesnotexist"]) {
      const res = await disable(b.apiKey, id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: "NOT_FOUND", message: "No such link in this workspace." } });
    }
    expect((await follow(theirs.slug)).status).toBe(302);
    expect((await follow(anonymous.slug)).status).toBe(302);
    expect(
      await app.db.event.count({
        where: { type: "link.disabled", workspaceId: { in: [a.workspaceId, b.workspaceId] } },
      }),
    ).toBe(0);
  });
});

describe("the dashboard's tRPC endpoint", () => {
  // The dashboard's Origin rule compares with the configured public URL; its requests come from 127.0.0.1.
  beforeEach(() => {
    delete process.env.SERVICE_PUBLIC_URL;
  });
  afterEach(() => {
    process.env.SERVICE_PUBLIC_URL = PUBLIC_BASE;
  });

  it("lets an owner and a member list the workspace's links and a member disable one, recorded with the member as actor", async () => {
    const { owner, member } = await ownerAndMember(app.db, "links", ["suite_business"]);
    const created = await call(owner, "links.create", { url: "https://example.com/from-dashboard" }, "mutation");
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({ scope: "workspace", reused: false });

    for (const seat of [owner, member]) {
      const res = await call(seat, "links.list", { limit: 10 }, "query");
      expect(res.status).toBe(200);
      expect(res.data.items).toEqual([
        expect.objectContaining({
          id: created.data.id,
          short_url: expect.stringMatching(new RegExp(`^http://[^/]+/go/${created.data.slug}$`)),
          status: "active",
          safety: SAFETY_CLEAN,
        }),
      ]);
    }

    const off = await call(member, "links.disable", { id: created.data.id }, "mutation");
    expect(off.status).toBe(200);
    expect(off.data).toMatchObject({ id: created.data.id, status: "disabled" });
    expect((await follow(created.data.slug)).status).toBe(410);
    const event = await app.db.event.findFirst({ where: { workspaceId: member.workspaceId, type: "link.disabled" } });
    expect(event).toMatchObject({ actor: `user:${member.user.userId}`, email: member.user.email });
  });

  it("lets a Free workspace's owner list and disable its links, and answers another workspace's link as not found", async () => {
    const { owner } = await ownerAndMember(app.db, "links-free", ["free"]);
    const other = await app.seedWorkspace({ plans: ["suite_business"] });
    const theirs = await linkOf(other.apiKey, "https://example.com/not-yours");
    const mine = await call(owner, "links.create", { url: "https://example.com/free-dashboard" }, "mutation");
    expect((await call(owner, "links.list", {}, "query")).data.items.map((l: { id: string }) => l.id)).toEqual([
      mine.data.id,
    ]);

    const refused = await call(owner, "links.disable", { id: theirs.id }, "mutation");
    expect(refused.status).toBe(404);
    expect(refused.code).toBe("NOT_FOUND");
    expect((await follow(theirs.slug)).status).toBe(302);
    expect((await call(owner, "links.disable", { id: mine.data.id }, "mutation")).data.status).toBe("disabled");
  });
});
