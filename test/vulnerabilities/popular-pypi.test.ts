// PyPI's popular names built at refresh time (issue 25, item 5): a real HTTP server on 127.0.0.1 plays the
// top-pypi-packages document SERVICE_PYPI_POPULAR_URL names; the refresh stores it in the database, dated by the
// source's last_update, and the typosquat check decides the 100-times rule from the list's own download counts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../server/admin/commands";
import { scheduledTasks } from "../../server/startup/tasks";
import {
  popularDownloads,
  popularNames,
  popularNamesInfo,
  resetRefreshedPopularLists,
} from "../../server/vulnerabilities/popular-names";
import {
  parseTopPackages,
  popularNamesReady,
  popularNamesRefreshTasks,
  POPULAR_REFRESH_TASK_PREFIX,
  refreshPopularNames,
  resetPopularWatches,
} from "../../server/vulnerabilities/popular-refresh";
import { typosquatCandidate } from "../../server/vulnerabilities/typosquat";
import { findTyposquat, withListedDownloads } from "../../server/vulnerabilities/typosquat-check";
import { createTestApp } from "../harness";
import { useFakePackageSources } from "./fake-sources";

// The source's shape (top-pypi-packages.min.json): 30-day counts, most downloaded first, last_update in UTC.
const ROWS = [
  { download_count: 1_880_218_825, project: "boto3" },
  { download_count: 1_424_208_495, project: "urllib3" },
  { download_count: 1_293_719_496, project: "typing-extensions" },
  { download_count: 1_291_814_272, project: "requests" },
  { download_count: 602_339_114, project: "numpy" },
  { download_count: 310_552_086, project: "django" },
  { download_count: 40_871_552, project: "boto" },
  { download_count: 5_000_000, project: "flask" },
];
const DOCUMENT = {
  last_update: "2026-11-01 12:00:00",
  source: "ClickHouse",
  meta: [
    { name: "download_count", type: "Int64" },
    { name: "project", type: "String" },
  ],
  rows: ROWS,
};

type Mode = "ok" | "down" | "malformed" | "empty" | "gzip";
const served = { mode: "ok" as Mode, hits: 0, body: DOCUMENT as object };
let server: Server;
let base = "";

function listen(): Promise<void> {
  server = createServer((req, res) => {
    served.hits++;
    if (served.mode === "down") return res.writeHead(503).end("Service Unavailable");
    const body =
      served.mode === "malformed"
        ? "<html>not json</html>"
        : JSON.stringify(served.mode === "empty" ? { ...DOCUMENT, rows: [] } : served.body);
    if (served.mode === "gzip") return res.writeHead(200, { "content-type": "application/gzip" }).end(gzipSync(body));
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
}

const sources = useFakePackageSources();
const app = await createTestApp();

beforeAll(async () => {
  await listen();
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  delete process.env.SERVICE_PYPI_POPULAR_URL;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  served.mode = "ok";
  served.hits = 0;
  served.body = DOCUMENT;
  process.env.SERVICE_PYPI_POPULAR_URL = `${base}/top-pypi-packages.min.json`;
});

/** A process that has not seen the list yet: nothing in memory, the stored copy (if any) read on first use. */
function freshProcess() {
  resetRefreshedPopularLists();
  resetPopularWatches();
}

describe("PyPI popular names from SERVICE_PYPI_POPULAR_URL", () => {
  it("has no list and says why while the setting is unset", async () => {
    delete process.env.SERVICE_PYPI_POPULAR_URL;
    freshProcess();
    await popularNamesReady("pypi");
    expect(popularNames("pypi")).toEqual([]);
    const info = popularNamesInfo("pypi");
    expect(info).toEqual({
      source: "none",
      date: null,
      count: 0,
      reason: "No popular-name list ships for PyPI; none is configured",
    });
    expect(await findTyposquat("pypi", "reqeusts")).toBeNull();
    const refused = await refreshPopularNames(app.db, "pypi");
    expect(refused).toMatchObject({ ok: false, count: 0, sourceUrl: null });
    expect(refused.error).toMatch(/SERVICE_PYPI_POPULAR_URL/);
    expect(served.hits).toBe(0);
    expect(popularNamesRefreshTasks()).toEqual([]);
  });

  it("says the list is not built yet before the first refresh, and why a first refresh failed", async () => {
    freshProcess();
    await popularNamesReady("pypi");
    const info = popularNamesInfo("pypi");
    expect(info.count).toBe(0);
    expect(info.reason).toMatch(/has not been built from http:\/\/127\.0\.0\.1:\d+\/top-pypi-packages\.min\.json yet/);
    // A first refresh that fails leaves no list, and the reason says why.
    served.mode = "down";
    expect(await refreshPopularNames(app.db, "pypi")).toMatchObject({ ok: false, count: 0, date: null });
    expect(popularNamesInfo("pypi")).toMatchObject({
      count: 0,
      reason: expect.stringMatching(/could not be built from http:\/\/127\.0\.0\.1:\d+\/\S+: HTTP 503/),
    });
    expect(await findTyposquat("pypi", "reqeusts")).toBeNull();
  });

  it("refreshes: keeps the names with their counts, dated by the source's last_update", async () => {
    freshProcess();
    const result = await refreshPopularNames(app.db, "pypi");
    expect(result).toEqual({
      ecosystem: "pypi",
      ok: true,
      count: ROWS.length,
      date: "2026-11-01T12:00:00.000Z",
      sourceUrl: process.env.SERVICE_PYPI_POPULAR_URL,
      error: null,
    });
    expect(served.hits).toBe(1);
    expect(popularNames("pypi")).toEqual(ROWS.map((r) => r.project));
    expect(popularNamesInfo("pypi")).toEqual({
      source: process.env.SERVICE_PYPI_POPULAR_URL,
      date: "2026-11-01T12:00:00.000Z",
      count: ROWS.length,
      reason: null,
    });
    const downloads = popularDownloads("pypi")!;
    expect(downloads.floor).toBe(5_000_000);
    expect(downloads.countOf("Requests")).toBe(1_291_814_272);
    expect(downloads.countOf("typing_extensions")).toBe(1_293_719_496);
    expect(downloads.countOf("reqeusts")).toBeNull();
  });

  it("names requests for reqeusts, with both counts as the evidence of the 100-times rule", async () => {
    await refreshPopularNames(app.db, "pypi");
    const near = typosquatCandidate("pypi", "reqeusts");
    expect(near).toMatchObject({ of: "requests", technique: "swap", popularRank: 4 });
    const squat = await findTyposquat("pypi", "reqeusts");
    expect(squat).toMatchObject({ of: "requests", technique: "swap", popularRank: 4 });
    expect(squat!.evidence).toBe(
      "'reqeusts' swaps two letters of 'requests', one of the most downloaded PyPI packages (rank 4); " +
        "'reqeusts' is not among the 8 most downloaded PyPI projects, so it had at most 5,000,000 downloads " +
        "in the 30 days to 2026-11-01 while 'requests' had 1,291,814,272, over 100 times more",
    );
    expect(await findTyposquat("pypi", "nunpy")).toMatchObject({ of: "numpy", technique: "edit" });
  });

  it("is exact: no squat when the popular project is not shown to have 100 times the candidate's downloads", async () => {
    await refreshPopularNames(app.db, "pypi");
    // django (310,552,086) is near djnago, but a project off the list may have up to 5,000,000: 62 times, not 100.
    expect(typosquatCandidate("pypi", "djnago")).toMatchObject({ of: "django" });
    expect(await findTyposquat("pypi", "djnago")).toBeNull();
    // boto is one edit from boto3 and on the list itself with 40,871,552 (over a hundredth of boto3's): no squat.
    expect(await findTyposquat("pypi", "boto")).toBeNull();
    // The rule from a listed candidate's own count: flask's 5,000,000 is under a hundredth of requests', boto's is not.
    const match = { of: "requests", technique: "edit" as const, popularRank: 4, evidence: "near requests" };
    const listed = popularDownloads("pypi")!;
    expect(withListedDownloads("pypi", match, "boto", listed)).toBeNull();
    expect(withListedDownloads("pypi", match, "flask", listed)?.evidence).toBe(
      "near requests; it had 5,000,000 downloads in the 30 days to 2026-11-01 while 'requests' had " +
        "1,291,814,272, 258 times more",
    );
  });

  it("treats separator spellings as the same project (PEP 503), not as squats", async () => {
    await refreshPopularNames(app.db, "pypi");
    for (const name of ["typing_extensions", "Typing.Extensions", "typing__extensions", "REQUESTS"]) {
      expect(typosquatCandidate("pypi", name), name).toBeNull();
      expect(await findTyposquat("pypi", name), name).toBeNull();
    }
    // Dropping the separator is another name.
    expect(await findTyposquat("pypi", "typingextensions")).toMatchObject({
      of: "typing-extensions",
      technique: "separator",
    });
  });

  it("keeps the previous list with the reason when the source is unreachable, down or malformed", async () => {
    await refreshPopularNames(app.db, "pypi");
    const before = popularNamesInfo("pypi");

    served.mode = "down";
    const down = await refreshPopularNames(app.db, "pypi");
    expect(down).toMatchObject({ ok: false, count: ROWS.length, date: "2026-11-01T12:00:00.000Z" });
    expect(down.error).toMatch(/HTTP 503/);
    expect(popularNamesInfo("pypi")).toEqual({
      ...before,
      refreshError: expect.stringMatching(/^the refresh from http:\/\/127\.0\.0\.1:\d+\/\S+ failed: HTTP 503/),
    });

    for (const mode of ["malformed", "empty"] as const) {
      served.mode = mode;
      const bad = await refreshPopularNames(app.db, "pypi");
      expect(bad.ok, mode).toBe(false);
      expect(bad.error, mode).toMatch(mode === "malformed" ? /not JSON/ : /lists no projects/);
    }

    process.env.SERVICE_PYPI_POPULAR_URL = "http://127.0.0.1:9/top-pypi-packages.min.json"; // nothing listens there
    const unreachable = await refreshPopularNames(app.db, "pypi");
    expect(unreachable).toMatchObject({
      ok: false,
      count: ROWS.length,
      sourceUrl: "http://127.0.0.1:9/top-pypi-packages.min.json",
    });
    expect(unreachable.error).toMatch(/fetch failed|ECONNREFUSED/);
    const info = popularNamesInfo("pypi");
    expect(info).toMatchObject({ count: ROWS.length, date: "2026-11-01T12:00:00.000Z", reason: null });
    expect(info.refreshError).toMatch(/^the refresh from http:\/\/127\.0\.0\.1:9\/\S+ failed: fetch failed/);
    expect(await findTyposquat("pypi", "reqeusts")).toMatchObject({ of: "requests" });

    // A good refresh clears the error.
    process.env.SERVICE_PYPI_POPULAR_URL = `${base}/top-pypi-packages.min.json`;
    served.mode = "gzip";
    expect(await refreshPopularNames(app.db, "pypi")).toMatchObject({ ok: true, error: null });
    expect(popularNamesInfo("pypi").refreshError).toBeUndefined();
  });

  it("reaches another process through the database, and a newer refresh replaces the index", async () => {
    await refreshPopularNames(app.db, "pypi");
    freshProcess();
    expect(popularNames("pypi")).toEqual([]); // nothing in memory until the stored copy is read
    const squat = await findTyposquat("pypi", "reqeusts");
    expect(squat).toMatchObject({ of: "requests" });
    expect(popularNamesInfo("pypi")).toMatchObject({ count: ROWS.length, date: "2026-11-01T12:00:00.000Z" });

    // The next month: requests is gone from the list, so reqeusts no longer imitates a listed name.
    served.body = {
      ...DOCUMENT,
      last_update: "2026-12-01 12:00:00",
      rows: ROWS.filter((r) => r.project !== "requests"),
    };
    expect(await refreshPopularNames(app.db, "pypi")).toMatchObject({ ok: true, date: "2026-12-01T12:00:00.000Z" });
    expect(typosquatCandidate("pypi", "reqeusts")).toBeNull();
  });

  it("is dropped when the setting is unset again", async () => {
    await refreshPopularNames(app.db, "pypi");
    expect(await findTyposquat("pypi", "reqeusts")).not.toBeNull();
    delete process.env.SERVICE_PYPI_POPULAR_URL;
    expect(await findTyposquat("pypi", "reqeusts")).toBeNull();
    expect(popularNamesInfo("pypi").reason).toBe("No popular-name list ships for PyPI; none is configured");
  });

  it("refreshes daily as a scheduled job while configured", async () => {
    const [task] = popularNamesRefreshTasks();
    expect(task).toMatchObject({ name: `${POPULAR_REFRESH_TASK_PREFIX}pypi`, everyMs: 86_400_000 });
    expect(scheduledTasks().map((t) => t.name)).toContain(`${POPULAR_REFRESH_TASK_PREFIX}pypi`);
    served.hits = 0;
    await task!.run(app.db, new Date());
    expect(served.hits).toBe(1);
    served.mode = "down";
    await expect(task!.run(app.db, new Date())).rejects.toThrow(/HTTP 503/);
  });

  it("is refreshed and shown by the admin commands", async () => {
    const refreshed = await runAdminCommand(app.db, ["popular-names", "refresh"]);
    expect(refreshed.result).toEqual([expect.objectContaining({ ecosystem: "pypi", ok: true, count: ROWS.length })]);
    expect(refreshed.text).toContain("pypi\trefreshed\t8\t2026-11-01T12:00:00.000Z");
    const status = await runAdminCommand(app.db, ["popular-names", "status"]);
    const rows = status.result as { ecosystem: string; count: number; reason: string | null }[];
    expect(rows.find((r) => r.ecosystem === "pypi")).toMatchObject({ count: ROWS.length, reason: null });
    expect(rows.find((r) => r.ecosystem === "npm")!.count).toBeGreaterThan(15_000);
    expect(rows.find((r) => r.ecosystem === "go")!.reason).toMatch(/No popular-name list ships for Go/);
  });

  it("fails the admin refresh (exit 1, naming the source) when the configured source fails, as feeds refresh does", async () => {
    // `popular-names refresh` against a source answering 503 printed "kept" and exited 0, so a scheduled refresh
    // never noticed; `feeds refresh` exits 1 naming the feed whose source failed.
    served.mode = "down";
    const failed = await runAdminCommand(app.db, ["popular-names", "refresh"]);
    expect(failed.failed).toMatch(/^refresh failed for pypi \(.*HTTP 503.*\); the previous list is kept$/);
    expect(failed.text).toContain("pypi\tkept");
    // Not configured is not a failure: there is nothing to refresh.
    delete process.env.SERVICE_PYPI_POPULAR_URL;
    expect((await runAdminCommand(app.db, ["popular-names", "refresh"])).failed).toBeUndefined();
  });

  it("refuses documents that are not a top-packages list", () => {
    expect(() => parseTopPackages("pypi", "{}")).toThrow(/no "rows"/);
    expect(() => parseTopPackages("pypi", JSON.stringify({ last_update: "soon", rows: ROWS }))).toThrow(/not a date/);
    expect(() =>
      parseTopPackages("pypi", JSON.stringify({ ...DOCUMENT, rows: [{ project: "x", download_count: "many" }] })),
    ).toThrow(/row 1/);
    // Sorted by count, one entry per PEP 503 name (the higher count), cut to the limit.
    const parsed = parseTopPackages(
      "pypi",
      JSON.stringify({
        last_update: "2026-11-01T12:00:00+02:00",
        rows: [
          { project: "b", download_count: 5 },
          { project: "Zope.Interface", download_count: 9 },
          { project: "zope-interface", download_count: 7 },
          { project: "a", download_count: 8 },
        ],
      }),
      2,
    );
    expect(parsed.date).toBe("2026-11-01T10:00:00.000Z");
    expect(parsed.rows).toEqual([
      { project: "Zope.Interface", download_count: 9 },
      { project: "a", download_count: 8 },
    ]);
  });
});

describe("POST /v1/vulnerabilities/scan with the PyPI list", () => {
  it("reports reqeusts as a typosquat of requests, with the counts, though the registry does not know it", async () => {
    await refreshPopularNames(app.db, "pypi");
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/vulnerabilities/scan", {
      key: ws.apiKey,
      body: "reqeusts==2.31.0\n",
      headers: { "Content-Type": "text/plain" },
    });
    expect(res.status).toBe(200);
    expect(res.body.format).toBe("requirements");
    const [pkg] = res.body.packages;
    expect(pkg).toMatchObject({ name: "reqeusts", version: "2.31.0", ecosystem: "pypi" });
    expect(pkg.registry.status).toBe("not_found");
    const squat = pkg.findings.find((f: any) => f.kind === "typosquat");
    expect(squat.evidence).toMatchObject({ typosquat_of: "requests", technique: "swap", popularRank: 4 });
    expect(squat.reason).toMatch(
      /at most 5,000,000 downloads in the 30 days to 2026-11-01 while 'requests' had 1,291,814,272/,
    );
    expect(pkg.verdict.reasons[0]).toMatch(/typosquat of requests/);
    expect(res.body.sources.find((s: any) => s.source === "popularNames:pypi")).toEqual({
      source: "popularNames:pypi",
      url: process.env.SERVICE_PYPI_POPULAR_URL,
      status: "ok",
      fetchedAt: "2026-11-01T12:00:00.000Z",
      cached: true,
      reason: null,
    });
    expect(sources.current.requests.pypi).toBeGreaterThan(0);
  });

  it("says why there is no PyPI list when the setting is unset, and finds no typosquat", async () => {
    delete process.env.SERVICE_PYPI_POPULAR_URL;
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/vulnerabilities/scan", {
      key: ws.apiKey,
      body: "reqeusts==2.31.0\n",
      headers: { "Content-Type": "text/plain" },
    });
    expect(res.status).toBe(200);
    expect(res.body.packages[0].findings.map((f: any) => f.kind)).not.toContain("typosquat");
    expect(res.body.sources.find((s: any) => s.source === "popularNames:pypi")).toMatchObject({
      status: "not_configured",
      reason: "No popular-name list ships for PyPI; none is configured",
    });
  });
});
