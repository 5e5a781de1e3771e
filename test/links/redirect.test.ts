// GET /go/{slug} (the route handler itself): 302 to the stored destination, 404 unknown, 410 expired or disabled.
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "../../app/go/[slug]/route";
import type { TestApp } from "../harness";
import { createLink, startLinksApp } from "./setup";

let app: TestApp;
beforeAll(async () => {
  app = await startLinksApp();
});

const follow = (slug: string, accept = "*/*") =>
  GET(new Request(`http://127.0.0.1:3000/go/${encodeURIComponent(slug)}`, { headers: { Accept: accept } }), {
    params: Promise.resolve({ slug }),
  });

describe("following a link", () => {
  it("redirects with 302 to the destination, uncached, and counts the click", async () => {
    const { body } = await createLink(app, { url: "https://example.com/landing?utm=x#section" });
    const res = await follow(body.slug);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://example.com/landing?utm=x#section");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    await follow(body.slug);
    expect((await app.db.link.findUnique({ where: { slug: body.slug } }))?.clicks).toBe(2);
  });

  it("answers 404 for an unknown or malformed slug", async () => {
    for (const slug of ["Zz9Zz9Z", "../../etc", "https://evil.example"]) {
      const res = await follow(slug);
      expect(res.status).toBe(404);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.json()).toEqual({ error: { code: "NOT_FOUND", message: "No such link." } });
    }
  });

  it("answers 404 to a browser with a styled page that says what happened in words, not a bare status", async () => {
    const res = await follow("Zz9Zz9Z", "text/html,application/xhtml+xml");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await res.text();
    expect(html).toContain("<h1>This link does not exist</h1>");
    expect(html).toContain('<meta name="viewport"');
    expect(html).toMatch(/<style>[^<]*font-family/);
    expect(html).not.toContain("<h1>404</h1>");
  });

  it("answers 410 for an expired link and for a disabled one, without counting", async () => {
    const expiring = await createLink(app, {
      url: "https://example.com/gone",
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await app.db.link.update({ where: { slug: expiring.body.slug }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await follow(expiring.body.slug);
    expect(expired.status).toBe(410);
    expect(await expired.json()).toEqual({ error: { code: "LINK_EXPIRED", message: "This link has expired." } });

    const plain = await createLink(app, { url: "https://example.com/disabled-redirect" });
    await app.db.link.update({ where: { slug: plain.body.slug }, data: { disabledAt: new Date() } });
    const disabled = await follow(plain.body.slug);
    expect(disabled.status).toBe(410);
    expect(await disabled.json()).toEqual({
      error: { code: "LINK_DISABLED", message: "This link has been disabled." },
    });
    expect((await app.db.link.findUnique({ where: { slug: plain.body.slug } }))?.clicks).toBe(0);
    // A browser gets the same status with a page in words.
    const seen = await follow(plain.body.slug, "text/html");
    expect(seen.status).toBe(410);
    expect(await seen.text()).toContain("<h1>This link has been turned off</h1>");
    const late = await follow(expiring.body.slug, "text/html");
    expect(late.status).toBe(410);
    expect(await late.text()).toContain("<h1>This link has expired</h1>");
  });

  it("never redirects to a stored destination that breaks the URL rules", async () => {
    await app.db.link.create({
      data: { id: "lnk_bad", slug: "BadDest1", scope: "anon", destination: "javascript:alert(1)", normalizedKey: "x" },
    });
    const res = await follow("BadDest1");
    expect(res.status).toBe(404);
    expect(res.headers.get("location")).toBeNull();
  });
});
