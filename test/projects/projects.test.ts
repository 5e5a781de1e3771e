// Projects and scan history (issue 46, item 1): POST /v1/vulnerabilities/scan?project= keeps the answer already paid
// for and answers its diff against the project's default ref; the history is read, paged, rendered as SARIF and CSV
// and deleted under /v1/projects, by name with its slashes written %2F; reads are unmetered; another workspace's
// project is not found; the dashboard's door answers the same; expired scans are hidden and purged. Both stores.
import { beforeEach, describe, expect, it } from "vitest";
import { runRetentionPurge } from "../../server/maintenance/purge";
import { clearUpstreamCache } from "../../server/providers/packages/http";
import { call, ownerAndMember } from "../dashboard/call";
import { createTestApp } from "../harness";
import { useFakeEpss, useFakePackageSources } from "../vulnerabilities/fake-sources";
import { FIRST, SECOND } from "./lockfiles";

const sources = useFakePackageSources();
useFakeEpss();
// The machine's other work must not turn a slow fake into an unavailable OSV (the rule under test is not timing).
beforeEach(() => {
  process.env.SERVICE_PACKAGE_UPSTREAM_TIMEOUT_MS = "20000";
});
const app = await createTestApp();

const scan = (key: string, body: string, query = "", headers: Record<string, string> = {}) =>
  app.request("POST", `/v1/vulnerabilities/scan${query}`, {
    key,
    body,
    headers: { "Content-Type": "text/plain", ...headers },
  });
const get = (key: string, path: string, headers: Record<string, string> = {}) =>
  app.request("GET", path, { key, headers });

const MALWARE = {
  ecosystem: "npm",
  name: "tinted-logs",
  version: "1.4.2",
  kind: "malware",
  id: "MAL-2026-0101",
  severity: "critical",
  summary: "Malicious code in tinted-logs (npm)",
  fixed_version: null,
};
const WIDGET_ADVISORY = {
  ecosystem: "npm",
  name: "@acme/widget",
  version: "1.0.0",
  kind: "advisory",
  id: "GHSA-35jh-r3h4-6jhm",
  severity: "high",
  summary: "Prototype pollution in @acme/widget",
  fixed_version: "1.0.1",
};

describe("two scans of one project", () => {
  it("answers the second's diff against the first: the malicious version new, the fixed advisory fixed", async () => {
    const ws = await app.seedWorkspace();
    const first = await scan(ws.apiKey, FIRST, "?project=acme/web");
    expect(first.status).toBe(200);
    expect(first.body.diff.base).toBeNull();
    expect(first.body.diff.new.map((f: any) => `${f.name} ${f.kind} ${f.id}`)).toEqual([
      "@acme/widget advisory GHSA-35jh-r3h4-6jhm",
      "jquery advisory GHSA-jpcq-cgw6-v4j6",
      "@acme/widget unmaintained null",
      "jquery unmaintained null",
      "tinted-logs unmaintained null",
    ]);
    expect(first.body.project).toMatchObject({ name: "acme/web", ref: "default" });

    const second = await scan(ws.apiKey, SECOND, "?project=acme/web&ref=pr-7");
    expect(second.status).toBe(200);
    expect(second.body.diff).toEqual({
      base: { scan_id: first.body.project.scan_id, ref: "default", created_at: expect.any(String) },
      new: [MALWARE],
      fixed: [WIDGET_ADVISORY],
      unchanged: 4,
    });
    // Kept at no further cost: one unit per package version per scan, as without a project.
    expect(await app.used(ws.workspaceId)).toBe(6);

    // base_ref: against the pr-7 scan, the first file again fixes the malware and brings the advisory back.
    const back = await scan(ws.apiKey, FIRST, "?project=acme/web&ref=pr-8&base_ref=pr-7");
    expect(back.body.diff).toMatchObject({
      base: { scan_id: second.body.project.scan_id, ref: "pr-7" },
      new: [{ ...WIDGET_ADVISORY }],
      fixed: [MALWARE],
      unchanged: 4,
    });
  });
});

describe("two lockfiles of one repository in one project", () => {
  it("diffs each scan against the base's latest scan of the same path, so an unchanged pull request adds nothing", async () => {
    // CI scans the root lockfile and another one (a docs site, say) with the same --project: the CLI sends each file's
    // path. Against the ref's latest scan whatever its path, a pull request that changes nothing read the other file's
    // findings as new (and the default branch's scans "fixed" them in turn).
    const ws = await app.seedWorkspace();
    const root = await scan(ws.apiKey, FIRST, "?project=acme/mono&path=package-lock.json");
    // The other file's first scan has no scan of its own to follow: it takes the ref's latest, as a moved file does.
    const docs = await scan(ws.apiKey, SECOND, "?project=acme/mono&path=docs/package-lock.json");
    expect(docs.status).toBe(200);
    expect(docs.body.diff.base).toMatchObject({ scan_id: root.body.project.scan_id });

    const pr = await scan(ws.apiKey, FIRST, "?project=acme/mono&ref=pr-1&path=package-lock.json");
    expect(pr.body.diff).toEqual({
      base: { scan_id: root.body.project.scan_id, ref: "default", created_at: expect.any(String) },
      new: [],
      fixed: [],
      unchanged: 5,
    });
    const prDocs = await scan(ws.apiKey, SECOND, "?project=acme/mono&ref=pr-1&path=docs/package-lock.json");
    expect(prDocs.body.diff).toMatchObject({ base: { scan_id: docs.body.project.scan_id }, new: [], fixed: [] });

    // A scan without a path (the dashboard's, or an API call that names none) still takes the ref's latest scan, and
    // a path's first scan takes the ref's latest (here one without a path), as before paths were compared.
    const bare = await scan(ws.apiKey, FIRST, "?project=acme/mono&ref=pr-2");
    expect(bare.body.diff.base).toMatchObject({ scan_id: docs.body.project.scan_id });
    await scan(ws.apiKey, FIRST, "?project=acme/other");
    const named = await scan(ws.apiKey, FIRST, "?project=acme/other&ref=pr-3&path=package-lock.json");
    expect(named.body.diff).toMatchObject({ new: [], fixed: [] });
    expect(named.body.diff.base).not.toBeNull();
  });

  it("keeps a path's own last scan as the base when a newer scan without a path (the dashboard's) is of another file", async () => {
    // The CLI scans package-lock.json on the default ref; someone then scans another file into the project from the
    // dashboard, which sends no path. A pull request's CLI scan of package-lock.json must still compare with that
    // file's last scan: against the dashboard's, it read every finding of its own file as new and the other's as fixed.
    const ws = await app.seedWorkspace();
    const root = await scan(ws.apiKey, FIRST, "?project=acme/dash&path=package-lock.json");
    const dashboard = await scan(ws.apiKey, SECOND, "?project=acme/dash");
    expect(dashboard.body.diff.base).toMatchObject({ scan_id: root.body.project.scan_id });

    const pr = await scan(ws.apiKey, FIRST, "?project=acme/dash&ref=pr-1&path=package-lock.json");
    expect(pr.body.diff).toEqual({
      base: { scan_id: root.body.project.scan_id, ref: "default", created_at: expect.any(String) },
      new: [],
      fixed: [],
      unchanged: 5,
    });
    // A path the ref has no scan of still takes the ref's latest scan, the dashboard's here.
    const moved = await scan(ws.apiKey, SECOND, "?project=acme/dash&ref=pr-2&path=web/package-lock.json");
    expect(moved.body.diff).toMatchObject({ base: { scan_id: dashboard.body.project.scan_id }, new: [], fixed: [] });
  });
});

describe("a scan that failed its policy on what it added (fail_on_new)", () => {
  it("is never the next base: re-running the failed job fails again, a pull request too, until a scan passes", async () => {
    // The default branch's pipeline runs --fail-on-new. A push brings the malicious tinted-logs 1.4.2: the scan fails.
    // Taken as the next base, the same job run again found nothing new and passed, hiding the malware.
    const ws = await app.seedWorkspace();
    const q = (extra: string) => `?project=acme/rerun&path=package-lock.json${extra}`;
    const clean = await scan(ws.apiKey, FIRST, q(""));
    expect(clean.body.project.policy).toBeUndefined();

    const failed = await scan(ws.apiKey, SECOND, q("&fail_on_new=high"));
    expect(failed.status).toBe(200);
    expect(failed.body.diff.new).toEqual([MALWARE]);
    expect(failed.body.project.policy).toEqual({
      fail_on_new: "high",
      passed: false,
      breaches: ["1 new malware package"],
    });

    const rerun = await scan(ws.apiKey, SECOND, q("&fail_on_new=high"));
    expect(rerun.body.diff).toMatchObject({ base: { scan_id: clean.body.project.scan_id }, new: [MALWARE] });
    expect(rerun.body.project.policy).toMatchObject({ passed: false });
    // A pull request from that main is compared with the last accepted scan too: the malware is not accepted.
    const pr = await scan(ws.apiKey, SECOND, q("&ref=pr-9&fail_on_new=high"));
    expect(pr.body.diff).toMatchObject({ base: { scan_id: clean.body.project.scan_id }, new: [MALWARE] });

    // At --fail-on malware, the widget's high advisory coming back does not fail: that scan is the next base.
    const passed = await scan(ws.apiKey, FIRST, q("&fail_on_new=malware"));
    expect(passed.body.project.policy).toEqual({ fail_on_new: "malware", passed: true, breaches: [] });
    const after = await scan(ws.apiKey, FIRST, q("&fail_on_new=high"));
    expect(after.body.diff).toMatchObject({ base: { scan_id: passed.body.project.scan_id }, new: [] });

    // A scan judged on the whole file (no fail_on_new) stays a base whatever it holds, as before: a pull request that
    // keeps main's findings adds nothing.
    const whole = await scan(ws.apiKey, SECOND, q(""));
    const keeps = await scan(ws.apiKey, SECOND, q("&ref=pr-10&fail_on_new=high"));
    expect(keeps.body.diff).toMatchObject({ base: { scan_id: whole.body.project.scan_id }, new: [] });
    expect(keeps.body.project.policy).toMatchObject({ passed: true });

    // The verdict is kept with the scan: the history lists it.
    const history = await get(ws.apiKey, "/v1/projects/acme%2Frerun/scans?limit=100");
    const byId = new Map(history.body.items.map((i: any) => [i.id, i.policy]));
    expect(byId.get(failed.body.project.scan_id)).toMatchObject({ fail_on_new: "high", passed: false });
    expect(byId.get(clean.body.project.scan_id)).toBeNull();
    expect(await app.used(ws.workspaceId)).toBe(8 * 3);
  });

  it("refuses fail_on_new without a project, or outside high, critical and malware, before any unit", async () => {
    const ws = await app.seedWorkspace();
    const alone = await scan(ws.apiKey, FIRST, "?fail_on_new=high");
    expect(alone.status).toBe(400);
    expect(alone.body.error.code).toBe("INVALID_REQUEST");
    expect(alone.body.error.message).toContain("fail_on_new");
    const odd = await scan(ws.apiKey, FIRST, "?project=acme/web&fail_on_new=moderate");
    expect(odd.status).toBe(400);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

describe("a registry outage in one of two scans", () => {
  const registryOf = (res: any, name: string) => res.body.packages.find((p: any) => p.name === name).registry.status;

  it("makes the supply-chain findings it hid neither new nor fixed; advisories and malware still count", async () => {
    const ws = await app.seedWorkspace();
    // The base: the npm registry fails for jquery, so its unmaintained finding is missing (its advisory is OSV's).
    sources.current.downPackages.add("jquery");
    const first = await scan(ws.apiKey, FIRST, "?project=acme/web");
    expect(first.status).toBe(200);
    expect(registryOf(first, "jquery")).toBe("unavailable");
    expect(first.body.diff.new.map((f: any) => `${f.name} ${f.kind}`)).not.toContain("jquery unmaintained");

    // The registry is back: jquery's unmaintained finding is not new, the answer is the one without an outage.
    sources.current.downPackages.clear();
    const second = await scan(ws.apiKey, SECOND, "?project=acme/web&ref=pr-7");
    expect(registryOf(second, "jquery")).toBe("ok");
    expect(second.body.diff).toEqual({
      base: { scan_id: first.body.project.scan_id, ref: "default", created_at: expect.any(String) },
      new: [MALWARE],
      fixed: [WIDGET_ADVISORY],
      unchanged: 4,
    });

    // Against that scan, one where the registry fails for jquery and tinted-logs: their unmaintained findings are
    // not fixed, while tinted-logs' malware report (OSV's) is fixed and the widget's advisory new, as without it.
    clearUpstreamCache();
    sources.current.downPackages.add("jquery").add("tinted-logs");
    const third = await scan(ws.apiKey, FIRST, "?project=acme/web&ref=pr-8&base_ref=pr-7");
    expect(registryOf(third, "tinted-logs")).toBe("unavailable");
    expect(third.body.diff).toMatchObject({
      base: { scan_id: second.body.project.scan_id, ref: "pr-7" },
      new: [WIDGET_ADVISORY],
      fixed: [MALWARE],
      unchanged: 4,
    });
    const stored = await get(ws.apiKey, "/v1/projects/acme%2Fweb/scans?ref=pr-8");
    expect(stored.body.items[0].summary).toMatchObject({ new: 1, fixed: 1, unchanged: 4 });
  });
});

describe("a scan OSV could not answer", () => {
  it("is named in lookup history by its project and ref, with its units given back", async () => {
    const ws = await app.seedWorkspace();
    sources.current.down.add("osv");
    const res = await scan(ws.apiKey, FIRST, "?project=acme/web&ref=pr-3");
    expect([res.status, res.body.error.code]).toEqual([503, "UPSTREAM_UNAVAILABLE"]);
    expect(await app.used(ws.workspaceId)).toBe(0);
    const history = await get(ws.apiKey, "/v1/lookups/history");
    expect(
      history.body.items.map((e: { target: string; status: number; units: number }) => [e.target, e.status, e.units]),
    ).toEqual([["lockfile (project acme/web@pr-3, package-lock)", 503, 0]]);
  });
});

describe("the project's history", () => {
  it("lists projects, reads a project by its %2F-encoded name, pages its scans and renders a stored scan", async () => {
    const ws = await app.seedWorkspace();
    const first = await scan(ws.apiKey, FIRST, "?project=acme/web");
    const second = await scan(ws.apiKey, SECOND, "?project=acme/web&ref=main");
    await scan(ws.apiKey, FIRST, "?project=acme/api");
    const used = await app.used(ws.workspaceId);
    // The lookup history names the project and ref each scan was filed under.
    const history = await get(ws.apiKey, "/v1/lookups/history");
    expect(history.body.items.map((e: { target: string }) => e.target)).toEqual([
      expect.stringMatching(/^lockfile \(project acme\/api@default, package-lock, \d+ packages\)$/),
      expect.stringMatching(/^lockfile \(project acme\/web@main, package-lock, \d+ packages\)$/),
      expect.stringMatching(/^lockfile \(project acme\/web@default, package-lock, \d+ packages\)$/),
    ]);

    const list = await get(ws.apiKey, "/v1/projects?limit=1");
    expect(list.status).toBe(200);
    expect(list.body.items.map((p: any) => [p.name, p.scans])).toEqual([["acme/api", 1]]);
    const page2 = await get(ws.apiKey, `/v1/projects?limit=1&cursor=${encodeURIComponent(list.body.next_cursor)}`);
    expect(page2.body.items.map((p: any) => [p.name, p.scans, p.latest_scan.ref])).toEqual([["acme/web", 2, "main"]]);
    expect(page2.body.next_cursor).toBeNull();

    const project = await get(ws.apiKey, "/v1/projects/acme%2Fweb");
    expect(project.status).toBe(200);
    expect(project.body.refs.map((r: any) => [r.ref, r.scans, r.latest_scan.id])).toEqual([
      ["default", 1, first.body.project.scan_id],
      ["main", 1, second.body.project.scan_id],
    ]);
    expect(project.body.refs[1].latest_scan.summary).toEqual({
      packages: 3,
      vulnerable: 1,
      malware: 1,
      findings: 5,
      new: 1,
      fixed: 1,
      unchanged: 4,
    });
    expect(project.body.open_findings).toEqual(first.body.diff.new);
    expect(project.body.monitor).toBeNull();
    // An unencoded slash is another path segment: no such route.
    expect((await get(ws.apiKey, "/v1/projects/acme/web")).status).toBe(404);

    const scans = await get(ws.apiKey, "/v1/projects/acme%2Fweb/scans?limit=1");
    expect(scans.body.items.map((s: any) => s.id)).toEqual([second.body.project.scan_id]);
    const older = await get(ws.apiKey, `/v1/projects/acme%2Fweb/scans?limit=1&cursor=${scans.body.next_cursor}`);
    expect(older.body.items.map((s: any) => s.id)).toEqual([first.body.project.scan_id]);
    expect(older.body.next_cursor).toBeNull();
    const onlyMain = await get(ws.apiKey, "/v1/projects/acme%2Fweb/scans?ref=main");
    expect(onlyMain.body.items.map((s: any) => s.ref)).toEqual(["main"]);

    const path = `/v1/projects/acme%2Fweb/scans/${second.body.project.scan_id}`;
    const stored = await get(ws.apiKey, path);
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual(second.body);
    const sarif = await get(ws.apiKey, path, { Accept: "application/sarif+json" });
    expect(sarif.headers.get("content-type")).toMatch(/^application\/sarif\+json/);
    expect(sarif.body.version).toBe("2.1.0");
    expect(sarif.body.runs[0].results.map((r: any) => r.ruleId)).toContain("MAL-2026-0101");
    const csv = await get(ws.apiKey, path, { Accept: "text/csv" });
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.text.split("\r\n")[0]).toMatch(/^ecosystem,name,version,line,dev,kind,id,/);
    expect(csv.text).toContain("tinted-logs,1.4.2");
    // Reads are unmetered.
    expect(await app.used(ws.workspaceId)).toBe(used);

    const deleted = await app.request("DELETE", "/v1/projects/acme%2Fweb", { key: ws.apiKey });
    expect(deleted.body).toEqual({ name: "acme/web", deleted: true, scans: 2, monitors_deleted: [] });
    const audit = await app.db.event.findMany({
      where: { workspaceId: ws.workspaceId, type: "audit.project.deleted" },
    });
    expect(audit.map((e) => (e.data as any).target)).toEqual([{ kind: "project", id: "acme/web", label: "acme/web" }]);
    expect((await get(ws.apiKey, "/v1/projects/acme%2Fweb")).status).toBe(404);
    expect((await get(ws.apiKey, path)).status).toBe(404);
    expect((await get(ws.apiKey, "/v1/projects")).body.items.map((p: any) => p.name)).toEqual(["acme/api"]);
  });

  it("answers a missing project's scans 404 whatever the query, and a cursor that names none of the project's scans 400", async () => {
    const ws = await app.seedWorkspace();
    const web = await scan(ws.apiKey, FIRST, "?project=acme/web");
    const api = await scan(ws.apiKey, FIRST, "?project=acme/api");
    const other = await app.seedWorkspace();
    const theirs = await scan(other.apiKey, FIRST, "?project=acme/web");
    for (const query of ["", "?cursor=zzz", `?cursor=${web.body.project.scan_id}`, "?ref=main&cursor=zzz"]) {
      const res = await get(ws.apiKey, `/v1/projects/acme%2Fgone/scans${query}`);
      expect([res.status, res.body.error.code], query).toEqual([404, "NOT_FOUND"]);
      expect(res.body.error.message).toMatch(/^No project acme\/gone in this workspace/);
    }
    for (const cursor of ["zzz", api.body.project.scan_id, theirs.body.project.scan_id]) {
      const res = await get(ws.apiKey, `/v1/projects/acme%2Fweb/scans?cursor=${cursor}`);
      expect([res.status, res.body.error.code], cursor).toEqual([400, "INVALID_REQUEST"]);
      expect(res.body.error.message).toBe(
        "cursor: unknown cursor (its item may have been deleted since); use the next_cursor of the previous page, or start again from the first page.",
      );
    }
    // The project's own last scan is a cursor: the page after it is empty, and the end.
    const after = await get(ws.apiKey, `/v1/projects/acme%2Fweb/scans?cursor=${web.body.project.scan_id}`);
    expect([after.status, after.body]).toEqual([200, { items: [], next_cursor: null }]);
  });

  it("refuses a list cursor that names none of the workspace's projects with 400, not an empty last page", async () => {
    const ws = await app.seedWorkspace();
    await scan(ws.apiKey, FIRST, "?project=acme/api");
    await scan(ws.apiKey, FIRST, "?project=acme/web");
    const other = await app.seedWorkspace();
    await scan(other.apiKey, FIRST, "?project=acme/other");
    for (const cursor of ["zzz", "acme/gone", "acme/other"]) {
      const res = await get(ws.apiKey, `/v1/projects?limit=1&cursor=${encodeURIComponent(cursor)}`);
      expect([res.status, res.body.error?.code], cursor).toEqual([400, "INVALID_REQUEST"]);
      expect(res.body.error.message).toMatch(/^cursor: unknown cursor/);
    }
    const first = await get(ws.apiKey, "/v1/projects?limit=1");
    const next = await get(ws.apiKey, `/v1/projects?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect([next.status, next.body.items.map((p: any) => p.name), next.body.next_cursor]).toEqual([
      200,
      ["acme/web"],
      null,
    ]);
  });

  it("refuses a ref without a project and a bad name with 400, before any unit or upstream call", async () => {
    const ws = await app.seedWorkspace();
    for (const query of ["?ref=main", "?base_ref=main", "?project=acme%20web", "?project=acme/web&ref=a%20b"]) {
      const res = await scan(ws.apiKey, FIRST, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
    }
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.db.projectScan.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    expect((await get(ws.apiKey, "/v1/projects/acme%20web")).status).toBe(400);
  });

  it("keeps the longest GitHub repository name (owner 39, name 100: 140) and refuses one character more", async () => {
    // The CI snippets pass $GITHUB_REPOSITORY as the project; at 100 characters a long repository name was refused.
    const ws = await app.seedWorkspace();
    const longest = `${"o".repeat(39)}/${"r".repeat(100)}`;
    const kept = await scan(ws.apiKey, FIRST, `?project=${longest}`);
    expect(kept.status).toBe(200);
    expect(kept.body.project.name).toBe(longest);
    const read = await get(ws.apiKey, `/v1/projects/${encodeURIComponent(longest)}`);
    expect(read.status).toBe(200);
    const watched = await app.request("POST", "/v1/monitors", {
      key: ws.apiKey,
      body: { target: longest, checks: ["project"], interval: "24h" },
    });
    expect(watched.status).toBe(200);
    const over = await scan(ws.apiKey, FIRST, `?project=${longest}x`);
    expect(over.status).toBe(400);
    expect(over.body.error.message).toContain("1 to 140 letters");
    expect(await app.used(ws.workspaceId)).toBe(3);
  });

  it.each([".", "..", "...", "acme/..", "../web", "acme/./web", "/", "acme//web", "acme/web/", "/acme"])(
    "refuses the project name %j, which no /v1/projects/{name} address could reach, with 400 and nothing stored",
    async (name) => {
      const ws = await app.seedWorkspace();
      const res = await scan(ws.apiKey, FIRST, `?project=${encodeURIComponent(name)}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
      expect(res.body.error.message).toContain("none empty and none only dots");
      expect(await app.used(ws.workspaceId)).toBe(0);
      expect(await app.db.projectScan.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
    },
  );

  it("keeps a name whose parts only start with or hold dots, and reads and deletes it by its address", async () => {
    const ws = await app.seedWorkspace();
    expect((await scan(ws.apiKey, FIRST, "?project=acme/.github")).status).toBe(200);
    expect((await scan(ws.apiKey, FIRST, "?project=a..b/web.v2")).status).toBe(200);
    expect((await get(ws.apiKey, "/v1/projects/acme%2F.github")).body.name).toBe("acme/.github");
    const deleted = await app.request("DELETE", "/v1/projects/a..b%2Fweb.v2", { key: ws.apiKey });
    expect(deleted.body).toEqual({ name: "a..b/web.v2", deleted: true, scans: 1, monitors_deleted: [] });
  });

  it("hides scans past the history window and the purge deletes them", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] }); // a 90-day history window
    await scan(ws.apiKey, FIRST, "?project=acme/old");
    const row = await app.db.projectScan.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
    expect(Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 86_400_000)).toBe(90);
    await app.db.projectScan.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await get(ws.apiKey, "/v1/projects")).body.items).toEqual([]);
    expect((await get(ws.apiKey, "/v1/projects/acme%2Fold")).status).toBe(404);
    // Deleting it is 404 as reading it is, and writes nothing (no audit event); the purge deletes the row.
    const deleted = await app.request("DELETE", "/v1/projects/acme%2Fold", { key: ws.apiKey });
    expect([deleted.status, deleted.body.error?.code]).toEqual([404, "NOT_FOUND"]);
    expect(await app.db.projectScan.count({ where: { id: row.id } })).toBe(1);
    expect(await app.db.event.count({ where: { workspaceId: ws.workspaceId, type: "audit.project.deleted" } })).toBe(0);
    expect((await runRetentionPurge(app.db, new Date(Date.now() + 8 * 86_400_000))).projectScans).toBeGreaterThan(0);
    expect(await app.db.projectScan.count({ where: { id: row.id } })).toBe(0);
  });
});

describe("isolation", () => {
  it("answers another workspace's project as not found, and keeps a same-named project apart", async () => {
    const ws = await app.seedWorkspace();
    const other = await app.seedWorkspace();
    const mine = await scan(ws.apiKey, FIRST, "?project=acme/web");
    const id = mine.body.project.scan_id;
    expect((await get(other.apiKey, "/v1/projects")).body.items).toEqual([]);
    for (const path of [
      "/v1/projects/acme%2Fweb",
      "/v1/projects/acme%2Fweb/scans",
      `/v1/projects/acme%2Fweb/scans/${id}`,
    ]) {
      const res = await get(other.apiKey, path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    expect((await app.request("DELETE", "/v1/projects/acme%2Fweb", { key: other.apiKey })).status).toBe(404);
    // The other workspace's first scan of the same name has no base: my scans are not its history.
    const theirs = await scan(other.apiKey, SECOND, "?project=acme/web");
    expect(theirs.body.diff.base).toBeNull();
    expect((await get(ws.apiKey, "/v1/projects/acme%2Fweb")).body.scans).toBe(1);
  });
});

describe("the dashboard's door", () => {
  it("scans into a project and reads it with a member's session; another workspace's member gets NOT_FOUND", async () => {
    const { member } = await ownerAndMember(app.db, "projects", ["suite_business"]);
    const scanned = await call(
      member,
      "vulnerabilities.scan",
      { lockfile: FIRST, project: "acme/web", ref: "main" },
      "mutation",
    );
    expect(scanned.status).toBe(200);
    expect(scanned.data.diff).toMatchObject({ base: null, unchanged: 0 });
    const list = await call(member, "projects.list", {}, "query");
    expect(list.data.items.map((p: any) => p.name)).toEqual(["acme/web"]);
    const project = await call(member, "projects.get", { name: "acme/web" }, "query");
    expect(project.data.refs.map((r: any) => r.ref)).toEqual(["main"]);
    const stored = await call(member, "projects.scan", { name: "acme/web", id: scanned.data.project.scan_id }, "query");
    expect(stored.data).toEqual(scanned.data);
    const dots = await call(member, "vulnerabilities.scan", { lockfile: FIRST, project: "acme/.." }, "mutation");
    expect([dots.status, dots.code]).toEqual([400, "INVALID_REQUEST"]);
    expect(dots.message).toContain("none empty and none only dots");
    const stranger = await ownerAndMember(app.db, "projects-other", ["suite_business"]);
    expect((await call(stranger.owner, "projects.get", { name: "acme/web" }, "query")).code).toBe("NOT_FOUND");
  });
});
