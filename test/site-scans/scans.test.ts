// POST /v1/scans against local sites that produce each grade from A+ to F, the SSRF table applied to scans,
// capability and cost through both entries, the 202 path, reading by id under the visibility rules, and host history.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import { scanStaleAfterMs } from "../../server/site-scans/config";
import { createRunningScan, STALE_SCAN_ERROR } from "../../server/site-scans/store";
import { ensureUser } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";
import { createTestApp, type TestApp } from "../harness";
import { EXPECTED, SITES, startSiteWorld, type SiteWorld } from "./sites";

let app: TestApp;
let world: SiteWorld;
const env = { ...process.env };

beforeAll(async () => {
  app = await createTestApp();
  world = await startSiteWorld();
  world.dns.setRecords("inside.test", [{ type: "A", data: "10.0.0.7" }]);
  Object.assign(process.env, {
    SERVICE_EXTRA_CA_FILE: world.caFile,
    SERVICE_TARGET_RESOLVER: "configured",
    SERVICE_DNS_SERVERS: world.dns.address,
  });
});

afterAll(async () => {
  process.env = env;
  await world.close();
});

beforeEach(() => {
  process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
  delete process.env.SERVICE_SCAN_WAIT_MS;
});

const scan = (key: string, url: string, visibility?: string) =>
  app.request("POST", "/v1/scans", { key, body: { url, ...(visibility ? { visibility } : {}) } });

describe("grades from A+ to F", () => {
  it.each(Object.entries(EXPECTED))("%s gets its grade, score and per-test points", async (name, want) => {
    const ws = await app.seedWorkspace();
    const res = await scan(ws.apiKey, world.startUrl(name));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      host: name,
      status: "done",
      visibility: "private",
      grade: want.grade,
      score: want.score,
      error: null,
    });
    const points = Object.fromEntries(res.body.tests.map((t: any) => [t.id, t.points]));
    expect(points).toMatchObject(want.points);
    expect(res.body.tests).toHaveLength(17);
    for (const t of res.body.tests) {
      expect(t.reason.length).toBeGreaterThan(10);
      if (t.points < 0) expect(t.fix).toEqual(expect.any(String));
    }
    expect(res.headers.get("x-service-quota-used")).toBe("1");
    expect(await app.ledgerCount(ws.workspaceId)).toBe(1);
  });

  it("the A+ site shows the redirect to HTTPS, the TLS summary and the domain checked", async () => {
    const ws = await app.seedWorkspace();
    const res = await scan(ws.apiKey, world.startUrl("aplus.test"));
    expect(res.body.redirects).toEqual([
      { url: `http://aplus.test:${world.http.port}/`, status: 301 },
      { url: `https://aplus.test:${world.https.port}/`, status: 200 },
    ]);
    expect(res.body.final_url).toBe(`https://aplus.test:${world.https.port}/`);
    expect(res.body.tls).toMatchObject({
      connected: true,
      valid: true,
      protocol: "TLSv1.3",
      days_left: expect.any(Number),
    });
    expect(res.body.domain).toBe("aplus.test");
    expect(res.body.summary).toEqual({ penalties: 0, bonuses: 50, bonuses_applied: true });
  });

  it("bonuses do not count below 90", async () => {
    const ws = await app.seedWorkspace();
    const site = SITES.find((s) => s.name === "d.test")!;
    site.headers["referrer-policy"] = "no-referrer";
    try {
      const res = await scan(ws.apiKey, world.startUrl("d.test"));
      const referrer = res.body.tests.find((t: any) => t.id === "referrer-policy");
      expect(referrer).toMatchObject({ points: 5, counted: false, passed: true });
      expect(res.body.score).toBe(30);
    } finally {
      delete site.headers["referrer-policy"];
    }
  });
});

describe("the SSRF table applied to scans", () => {
  it.each([
    "http://127.0.0.1/",
    "https://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://0x7f.1/",
    "http://2130706433/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00:ec2::254]/",
    "http://metadata.google.internal/",
    "inside.test",
    "http://example.com:25/",
  ])("%s is 400 TARGET_FORBIDDEN and costs nothing", async (url) => {
    delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS;
    const ws = await app.seedWorkspace();
    const res = await scan(ws.apiKey, url);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("TARGET_FORBIDDEN");
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.db.scan.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("a redirect to a forbidden address is not followed", async () => {
    world.http.setRoute("/to-metadata", { status: 302, headers: { location: "http://169.254.169.254/latest" } });
    const ws = await app.seedWorkspace();
    const res = await scan(ws.apiKey, `http://b.test:${world.http.port}/to-metadata`);
    expect(res.status).toBe(200);
    expect(res.body.redirects).toEqual([{ url: `http://b.test:${world.http.port}/to-metadata`, status: 302 }]);
  });

  it("a name that does not resolve is 404 DOMAIN_NOT_FOUND: free for a special-use name, counted after a DNS answer", async () => {
    const ws = await app.seedWorkspace();
    const special = await scan(ws.apiKey, "https://nowhere.invalid/");
    expect(special.status).toBe(404);
    expect(special.body.error.code).toBe("DOMAIN_NOT_FOUND");
    expect(await app.used(ws.workspaceId)).toBe(0);
    const res = await scan(ws.apiKey, "https://nowhere.test/");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("DOMAIN_NOT_FOUND");
    // Said once, in words: not "nowhere.test does not resolve: nowhere.test does not resolve (ENOTFOUND)."
    expect(res.body.error.message).toBe("nowhere.test does not resolve: no such name in the DNS.");
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("input that is not a URL or host is 400 INVALID_REQUEST", async () => {
    const ws = await app.seedWorkspace();
    for (const url of ["ftp://example.com/", "https://user:pw@example.com/", "", "not a host"]) {
      const res = await scan(ws.apiKey, url);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
    }
    const bad = await app.request("POST", "/v1/scans", {
      key: ws.apiKey,
      body: { url: "a.test", visibility: "secret" },
    });
    expect(bad.status).toBe(400);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

describe("capability and cost", () => {
  it("Free and Paid Email are 403 CAPABILITY_REQUIRED with nothing consumed", async () => {
    for (const plan of ["free", "email"]) {
      const ws = await app.seedWorkspace({ plans: [plan] });
      const res = await scan(ws.apiKey, world.startUrl("a.test"));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: { code: "CAPABILITY_REQUIRED", message: "This endpoint needs a Suite or Lookups plan." },
      });
      expect(await app.used(ws.workspaceId)).toBe(0);
    }
  });

  it("an exhausted allowance is 402 QUOTA_EXCEEDED and no scan is stored", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"], usedUnits: 1000 });
    const res = await scan(ws.apiKey, world.startUrl("a.test"));
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe("QUOTA_EXCEEDED");
    expect(await app.db.scan.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("the dashboard's tRPC endpoint runs the same procedure with the same capability and cost", async () => {
    const user = await ensureUser(app.db, { email: "scanner@example.test" });
    const free = await createWorkspace(app.db, {
      name: "free",
      plans: ["free"],
      ownerEmail: user.email,
      ownerUserId: user.id,
    });
    const paid = await createWorkspace(app.db, {
      name: "paid",
      plans: ["suite_starter"],
      ownerEmail: user.email,
      ownerUserId: user.id,
    });
    const call = (workspaceId: string) =>
      handleDashboardRequest(
        new Request("http://127.0.0.1:3000/api/trpc/scans.create", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            origin: "http://127.0.0.1:3000",
            "x-service-workspace": workspaceId,
          },
          body: JSON.stringify({ url: world.startUrl("b.test") }),
        }),
        async () => ({ userId: user.id, email: user.email, name: null }),
      );
    const denied = await call(free.workspaceId);
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as any).error.data.appCode).toBe("CAPABILITY_REQUIRED");
    expect(await app.used(free.workspaceId)).toBe(0);
    const ok = await call(paid.workspaceId);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).result.data).toMatchObject({ grade: "B", score: 75 });
    expect(await app.used(paid.workspaceId)).toBe(1);
  });
});

describe("slow scans and reading scans", () => {
  it("answers 202 with the id when the scan outlasts the wait, and GET /scans/{id} gives the result later", async () => {
    process.env.SERVICE_SCAN_WAIT_MS = "0";
    const ws = await app.seedWorkspace();
    const res = await scan(ws.apiKey, world.startUrl("c.test"));
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^scan_/),
      status: "running",
      score: null,
      grade: null,
      tests: null,
    });
    expect(await app.used(ws.workspaceId)).toBe(1);
    let read = await app.request("GET", `/v1/scans/${res.body.id}`, { key: ws.apiKey });
    for (let i = 0; i < 100 && read.body.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      read = await app.request("GET", `/v1/scans/${res.body.id}`, { key: ws.apiKey });
    }
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: "done", grade: "C", score: 55 });
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("a scan left running by an instance that stopped is failed with a reason once it is older than the bound; a younger one keeps running", async () => {
    const ws = await app.seedWorkspace();
    // What a restart leaves behind: the row was created as running, and the process that would finish it is gone.
    const orphan = await createRunningScan(app.db, {
      workspaceId: ws.workspaceId,
      host: "c.test",
      url: "https://c.test/",
      visibility: "unlisted",
    });
    const young = await createRunningScan(app.db, {
      workspaceId: ws.workspaceId,
      host: "c.test",
      url: "https://c.test/",
      visibility: "private",
    });
    await app.db.scan.update({
      where: { id: orphan.id },
      data: { createdAt: new Date(Date.now() - scanStaleAfterMs() - 1000) },
    });
    await app.db.scan.update({
      where: { id: young.id },
      data: { createdAt: new Date(Date.now() - scanStaleAfterMs() + 30_000) },
    });

    const read = await app.request("GET", `/v1/scans/${orphan.id}`, {});
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      status: "failed",
      score: null,
      grade: null,
      tests: null,
      error: STALE_SCAN_ERROR,
      finished_at: expect.any(String),
    });
    expect(read.body.error).toMatch(/restart or crash/);
    const stored = await app.db.scan.findUniqueOrThrow({ where: { id: orphan.id } });
    expect(stored.status).toBe("failed");

    const youngRead = await app.request("GET", `/v1/scans/${young.id}`, { key: ws.apiKey });
    expect(youngRead.body).toMatchObject({ status: "running", error: null, finished_at: null });

    // The host history settles stale rows too, and only them.
    const other = await createRunningScan(app.db, {
      workspaceId: ws.workspaceId,
      host: "c.test",
      url: "https://c.test/",
      visibility: "private",
    });
    await app.db.scan.update({
      where: { id: other.id },
      data: { createdAt: new Date(Date.now() - 2 * scanStaleAfterMs()) },
    });
    const list = await app.request("GET", "/v1/scans?host=c.test", { key: ws.apiKey });
    expect(Object.fromEntries(list.body.scans.map((s: any) => [s.id, s.status]))).toEqual({
      [orphan.id]: "failed",
      [young.id]: "running",
      [other.id]: "failed",
    });
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("a private scan is 404 to another workspace and to anonymous callers; unlisted and public are readable by id", async () => {
    const owner = await app.seedWorkspace();
    const other = await app.seedWorkspace();
    const ids: Record<string, string> = {};
    for (const v of ["private", "unlisted", "public"])
      ids[v] = (await scan(owner.apiKey, world.startUrl("b.test"), v)).body.id;
    for (const reader of [{ key: other.apiKey }, {}]) {
      const priv = await app.request("GET", `/v1/scans/${ids.private}`, reader);
      expect(priv.status).toBe(404);
      expect(priv.body).toEqual({ error: { code: "NOT_FOUND", message: "No scan with this id." } });
      for (const v of ["unlisted", "public"])
        expect((await app.request("GET", `/v1/scans/${ids[v]}`, reader)).body.visibility).toBe(v);
    }
    expect((await app.request("GET", `/v1/scans/${ids.private}`, { key: owner.apiKey })).status).toBe(200);
    expect((await app.request("GET", `/v1/scans/${ids.public}`, { key: "not-a-key" })).status).toBe(401);
    expect(await app.used(other.workspaceId)).toBe(0);
  });

  it("GET /scans?host= lists the workspace's scans of the host with what changed", async () => {
    const ws = await app.seedWorkspace();
    const other = await app.seedWorkspace();
    await scan(other.apiKey, world.startUrl("c.test"));
    await scan(ws.apiKey, world.startUrl("c.test"));
    const site = SITES.find((s) => s.name === "c.test")!;
    site.headers["x-frame-options"] = "DENY";
    try {
      await scan(ws.apiKey, world.startUrl("c.test"));
    } finally {
      delete site.headers["x-frame-options"];
    }
    const res = await app.request("GET", "/v1/scans?host=c.test", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.host).toBe("c.test");
    expect(res.body.scans).toHaveLength(2);
    expect(res.body.scans[0]).toMatchObject({
      grade: "B",
      score: 75,
      score_delta: 20,
      changes: [
        {
          test: "x-frame-options",
          from: "x-frame-options-not-implemented",
          to: "x-frame-options-sameorigin-or-deny",
          points_delta: 20,
        },
      ],
    });
    expect(res.body.scans[1]).toMatchObject({ score: 55, score_delta: null, changes: [] });
    expect(await app.used(ws.workspaceId)).toBe(2);
  });
});
