// GET /v1/scans/hosts: the hosts a workspace has scanned, the most recently scanned first, each with its latest
// scan and its number of scans, paged by a cursor; another workspace's scans never appear, and it costs nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { startSiteWorld, type SiteWorld } from "./sites";

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

const scan = async (key: string, name: string) => {
  const res = await app.request("POST", "/v1/scans", { key, body: { url: world.startUrl(name) } });
  expect(res.status).toBe(200);
  return res.body;
};

describe("GET /v1/scans/hosts", () => {
  it("lists the workspace's hosts, latest scan first, with counts, in pages, for free", async () => {
    const ws = await app.seedWorkspace();
    const other = await app.seedWorkspace();
    await scan(ws.apiKey, "a.test");
    await scan(ws.apiKey, "d.test");
    const latestA = await scan(ws.apiKey, "a.test");
    await scan(other.apiKey, "aplus.test");

    const res = await app.request("GET", "/v1/scans/hosts", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-quota-used")).toBeNull();
    const hosts = res.body.hosts as { host: string; scans: number; latest: { id: string; grade: string } }[];
    expect(hosts.map((h) => h.host)).toEqual([latestA.host, "d.test"]);
    expect(hosts[0]).toMatchObject({ scans: 2, latest: { id: latestA.id, grade: latestA.grade, status: "done" } });
    expect(hosts[1]!.scans).toBe(1);
    expect(res.body.next_cursor).toBeNull();

    const first = await app.request("GET", "/v1/scans/hosts?limit=1", { key: ws.apiKey });
    expect(first.body.hosts.map((h: { host: string }) => h.host)).toEqual([latestA.host]);
    expect(first.body.next_cursor).toBe(first.body.hosts[0].scanned_at);
    const second = await app.request(
      "GET",
      `/v1/scans/hosts?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { key: ws.apiKey },
    );
    expect(second.body.hosts.map((h: { host: string }) => h.host)).toEqual(["d.test"]);
    expect(second.body.next_cursor).toBeNull();

    const empty = await app.request("GET", "/v1/scans/hosts", { key: (await app.seedWorkspace()).apiKey });
    expect(empty.body).toEqual({ hosts: [], next_cursor: null });
  });

  it("refuses a bad page size or time in words", async () => {
    const ws = await app.seedWorkspace();
    for (const q of ["limit=0", "limit=101", "cursor=yesterday"]) {
      const res = await app.request("GET", `/v1/scans/hosts?${q}`, { key: ws.apiKey });
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
    }
    expect((await app.request("GET", "/v1/scans/hosts")).status).toBe(401);
  });
});
