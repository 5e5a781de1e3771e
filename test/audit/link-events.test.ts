// Investigation events of protected-link activity: `link.created` with the creation, and `link.visit_blocked` when a
// visit to a workspace's link is refused (disabled or expired), at most one per link and minute.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "../../app/go/[slug]/route";
import type { TestApp } from "../harness";
import { createLink, startLinksApp } from "../links/setup";

let app: TestApp;
beforeAll(async () => {
  // The visits below come "through" one proxy that reports the visitor's address (server/http/origin.ts).
  process.env.SERVICE_TRUST_PROXY = "1";
  app = await startLinksApp();
});
afterAll(() => {
  delete process.env.SERVICE_TRUST_PROXY;
});

const visit = (slug: string, headers: Record<string, string> = {}) =>
  GET(new Request(`http://127.0.0.1:3000/go/${slug}`, { headers }), { params: Promise.resolve({ slug }) });

const linkEvents = (workspaceId: string) =>
  app.db.event.findMany({
    where: { workspaceId, type: { startsWith: "link." } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });

describe("protected-link events", () => {
  it("records link.created with the link, and link.visit_blocked with the visitor when a disabled link is visited", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const created = await createLink(app, { url: "https://example.com/pay" }, { key: ws.apiKey });
    expect(created.status).toBe(200);
    await app.db.link.update({ where: { id: created.body.id }, data: { disabledAt: new Date() } });

    const refused = await visit(created.body.slug, {
      "x-forwarded-for": "192.0.2.44",
      "user-agent": "curl/8",
      referer: "https://mail.example/",
    });
    expect(refused.status).toBe(410);
    expect((await visit(created.body.slug)).status).toBe(410); // same minute: answered, not recorded again

    const events = await linkEvents(ws.workspaceId);
    expect(events.map((e) => e.type)).toEqual(["link.created", "link.visit_blocked"]);
    expect(events[0]).toMatchObject({ domain: "example.com", requestId: created.headers.get("x-request-id") });
    expect(events[0].data).toEqual({
      link_id: created.body.id,
      slug: created.body.slug,
      url: "https://example.com/pay",
      expires_at: null,
    });
    expect(events[1]).toMatchObject({ ip: "192.0.2.44", domain: "example.com" });
    expect(events[1].data).toEqual({
      link_id: created.body.id,
      slug: created.body.slug,
      reason: "disabled",
      url: "https://example.com/pay",
      user_agent: "curl/8",
      referer: "https://mail.example/",
    });

    const search = await app.request("GET", "/v1/events?type=link.visit_blocked", { key: ws.apiKey });
    expect(search.body.items.map((e: any) => e.data.reason)).toEqual(["disabled"]);
  });

  it("records an expired link's refused visit with reason expired", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const created = await createLink(
      app,
      { url: "https://www.example.org/x", expires_at: new Date(Date.now() + 60_000).toISOString() },
      { key: ws.apiKey },
    );
    expect(created.status).toBe(200);
    await app.db.link.update({ where: { id: created.body.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await visit(created.body.slug)).status).toBe(410);
    const [, blocked] = await linkEvents(ws.workspaceId);
    expect(blocked).toMatchObject({
      type: "link.visit_blocked",
      data: { reason: "expired", link_id: created.body.id },
    });
  });

  it("records nothing for a followed link, a reused link or an anonymous link", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const first = await createLink(app, { url: "https://example.com/same" }, { key: ws.apiKey });
    const again = await createLink(app, { url: "https://example.com/same" }, { key: ws.apiKey });
    expect(again.body.reused).toBe(true);
    expect((await visit(first.body.slug)).status).toBe(302);
    expect((await linkEvents(ws.workspaceId)).map((e) => e.type)).toEqual(["link.created"]);

    const anon = await createLink(app, { url: "https://example.com/anon" });
    await app.db.link.update({ where: { id: anon.body.id }, data: { disabledAt: new Date() } });
    expect((await visit(anon.body.slug)).status).toBe(410);
    expect(
      await app.db.event.count({
        where: { type: "link.visit_blocked", data: { path: ["link_id"], equals: anon.body.id } },
      }),
    ).toBe(0);
  });
});
