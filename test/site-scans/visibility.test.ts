// Badges and the leaderboard show public scans only: a private scan never leaks, an unlisted one is never listed
// or badged, whatever its grade or how recent it is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerBadgeRequest } from "../../server/site-scans/badge";
import { LEADERBOARD_WINDOW_DAYS } from "../../server/site-scans/public";
import { createTestApp, type TestApp } from "../harness";
import { SITES, startSiteWorld, type SiteWorld } from "./sites";

let app: TestApp;
let world: SiteWorld;
const env = { ...process.env };

beforeAll(async () => {
  app = await createTestApp();
  world = await startSiteWorld();
  Object.assign(process.env, {
    SERVICE_EXTRA_CA_FILE: world.caFile,
    SERVICE_TARGET_RESOLVER: "configured",
    SERVICE_DNS_SERVERS: world.dns.address,
    SERVICE_ALLOW_PRIVATE_TARGETS: "1",
  });
});
afterAll(async () => {
  process.env = env;
  await world.close();
});

const scan = async (key: string, name: string, visibility: string) => {
  const res = await app.request("POST", "/v1/scans", { key, body: { url: world.startUrl(name), visibility } });
  expect(res.status).toBe(200);
  return res.body;
};
const badge = async (host: string, etag: string | null = null) => {
  const res = await answerBadgeRequest(app.db, `${host}.svg`, etag);
  return { status: res.status, headers: res.headers, text: await res.text() };
};

describe("visibility of badges and the leaderboard", () => {
  it("private and unlisted scans never show; public ones do, one entry per host", async () => {
    const ws = await app.seedWorkspace();
    await scan(ws.apiKey, "aplus.test", "private"); // the best grade, but private
    await scan(ws.apiKey, "a.test", "unlisted");
    const dPublic = await scan(ws.apiKey, "d.test", "public");

    expect((await badge("aplus.test")).text).toContain("not scanned");
    expect((await badge("a.test")).text).toContain("not scanned");
    const d = await badge("d.test");
    expect(d.text).toContain(`D · ${dPublic.created_at.slice(0, 10)}`);

    // d.test improves, and a later private scan of it must not replace the public grade.
    const site = SITES.find((s) => s.name === "d.test")!;
    Object.assign(site.headers, {
      "strict-transport-security": "max-age=31536000",
      "x-frame-options": "DENY",
      "x-content-type-options": "nosniff",
    });
    try {
      await scan(ws.apiKey, "d.test", "public");
    } finally {
      for (const h of ["strict-transport-security", "x-frame-options", "x-content-type-options"])
        delete site.headers[h];
    }
    await scan(ws.apiKey, "d.test", "private");
    expect((await badge("d.test")).text).toContain("B · ");

    const lb = await app.request("GET", "/v1/scans/leaderboard");
    expect(lb.status).toBe(200);
    expect(lb.headers.get("x-service-quota-used")).toBeNull();
    const hosts = [...lb.body.best, ...lb.body.most_improved].map((e: any) => e.host);
    expect(hosts).not.toContain("aplus.test");
    expect(hosts).not.toContain("a.test");
    expect(lb.body.best.filter((e: any) => e.host === "d.test")).toEqual([
      {
        host: "d.test",
        scan_id: expect.stringMatching(/^scan_/),
        grade: "B",
        score: 75,
        scanned_at: expect.any(String),
        previous_score: 30,
        improvement: 45,
      },
    ]);
    expect(lb.body.most_improved[0]).toMatchObject({ host: "d.test", improvement: 45 });
  });

  it(`a public scan older than ${LEADERBOARD_WINDOW_DAYS} days is neither listed nor the earlier score of "most improved"`, async () => {
    const ws = await app.seedWorkspace();
    const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000);
    // b.test: its only public scan is a day past the window.
    const bOld = await scan(ws.apiKey, "b.test", "public");
    await app.db.scan.update({ where: { id: bOld.id }, data: { createdAt: daysAgo(LEADERBOARD_WINDOW_DAYS + 1) } });
    // c.test: a worse public scan past the window (without HSTS and nosniff it scores as d.test does), then one
    // inside it. Were the old scan counted, c.test would be "most improved" from that worse score.
    const site = SITES.find((s) => s.name === "c.test")!;
    const saved = { ...site.headers };
    for (const h of ["strict-transport-security", "x-content-type-options"]) delete site.headers[h];
    let cOld: any;
    try {
      cOld = await scan(ws.apiKey, "c.test", "public");
    } finally {
      site.headers = saved;
    }
    const cNew = await scan(ws.apiKey, "c.test", "public");
    expect(cOld.score).toBeLessThan(cNew.score);
    await app.db.scan.update({ where: { id: cOld.id }, data: { createdAt: daysAgo(LEADERBOARD_WINDOW_DAYS + 1) } });

    const lb = await app.request("GET", "/v1/scans/leaderboard");
    expect(lb.status).toBe(200);
    expect(lb.body.window_days).toBe(LEADERBOARD_WINDOW_DAYS);
    const all = [...lb.body.best, ...lb.body.most_improved];
    expect(all.map((e: any) => e.host)).not.toContain("b.test");
    expect(all.filter((e: any) => e.scan_id === cOld.id)).toEqual([]);
    expect(lb.body.best.filter((e: any) => e.host === "c.test")).toEqual([
      {
        host: "c.test",
        scan_id: cNew.id,
        grade: cNew.grade,
        score: cNew.score,
        scanned_at: expect.any(String),
        previous_score: null,
        improvement: null,
      },
    ]);
    expect(lb.body.most_improved.map((e: any) => e.host)).not.toContain("c.test");

    // The same scan one day inside the window is the earlier score (the check above can fail).
    await app.db.scan.update({ where: { id: cOld.id }, data: { createdAt: daysAgo(LEADERBOARD_WINDOW_DAYS - 1) } });
    const inside = await app.request("GET", "/v1/scans/leaderboard");
    expect(inside.body.most_improved.filter((e: any) => e.host === "c.test")).toEqual([
      expect.objectContaining({ scan_id: cNew.id, previous_score: cOld.score, improvement: cNew.score - cOld.score }),
    ]);
    await app.db.scan.update({ where: { id: cOld.id }, data: { createdAt: daysAgo(LEADERBOARD_WINDOW_DAYS + 1) } });
  });

  it("a badge has open CORS, a short cache, an ETag, and answers 304 to a matching If-None-Match", async () => {
    const first = await badge("d.test");
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(first.headers.get("access-control-allow-origin")).toBe("*");
    expect(first.headers.get("cache-control")).toBe("public, max-age=300");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await badge("d.test", etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect((await badge("never.test")).text).toMatch(/^<svg[^>]*aria-label="security: not scanned"/);
    expect((await badge("bad host")).status).toBe(404);
    // Broken percent-encoding is no host either: 404 in JSON, not a 500.
    const broken = await badge("%E0");
    expect(broken.status).toBe(404);
    expect(JSON.parse(broken.text).error.code).toBe("NOT_FOUND");
  });
});
