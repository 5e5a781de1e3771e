// Both doors, one ladder (issue 44): every metered procedure of the route table, called with the same input through
// /v1 (an API key) and through the dashboard (a signed-in member, tRPC over HTTP), gives the same answer (status,
// error code, and body once request ids, generated ids and timestamps are set aside), charges the same units and
// writes the same lookup-history row (endpoint, target, summary, units, status, code). Each door calls in a
// workspace of its own on the same plans, so one door's calls never count in the other's answers.
import { beforeAll, describe, expect, it } from "vitest";
import { flushLookupHistory } from "../../server/history/history";
import { warmIpFeeds } from "../../server/ip/reputation";
import { call, ownerAndMember, type Seat } from "../dashboard/call";
import { routeSamples, type RouteSample } from "../foundation/route-samples";
import { humanChrome, IP } from "../device/signals";
import { createTestApp, type TestApp } from "../harness";

const PLANS = ["suite_business"];

const LOCKFILE = JSON.stringify({
  name: "x",
  lockfileVersion: 3,
  packages: { "": { name: "x" }, "node_modules/left-pad": { version: "1.3.0" } },
});

/**
 * Inputs richer than the route table's generic samples, where its sample would only reach a 400: on /v1 the body
 * as sent (a lockfile's raw text), in the dashboard the procedure's input.
 */
const INPUTS: Record<string, { rest: unknown; dashboard: Record<string, unknown> }> = {
  "/vulnerabilities/scan": { rest: LOCKFILE, dashboard: { lockfile: LOCKFILE } },
  "/device/check": same({ device: humanChrome(), ip: IP, email: "someone@example.com" }),
  "/scans": same({ url: "https://example.com/" }),
};

function same(input: Record<string, unknown>) {
  return { rest: input, dashboard: input };
}

const metered = routeSamples().filter((s) => s.metered);

/** The procedure's input as the dashboard sends it: path parameters, query parameters and the JSON body together. */
function dashboardInput(s: RouteSample): Record<string, unknown> {
  const url = new URL(`http://x${s.path}`);
  const m = s.route.regex.exec(url.pathname.replace(/^\/v1/, "").replace(/\/+$/, ""));
  if (!m) throw new Error(`${s.path} does not match its own route ${s.route.template}`);
  const input: Record<string, unknown> = {};
  s.route.params.forEach((name, i) => (input[name] = decodeURIComponent(m[i + 1]!)));
  for (const [k, v] of url.searchParams) input[k] = v;
  const body = INPUTS[s.route.template]?.dashboard ?? s.body;
  if (body && typeof body === "object") Object.assign(input, body);
  return input;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const VOLATILE_KEY = /(^id$|_id$|Id$|^request|_at$|At$|^url$|_url$|Url$|^token$|Ms$|_ms$)/;

/** The answer without what differs from call to call: ids, request ids, timestamps, links to one call's result. */
function stable(v: unknown, key = ""): unknown {
  if (VOLATILE_KEY.test(key) && (typeof v === "string" || typeof v === "number")) return "<varies>";
  if (typeof v === "string") return ISO.test(v) ? "<time>" : v;
  if (Array.isArray(v)) return v.map((x) => stable(x));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, stable(x, k)]));
  return v;
}

/** What each procedure answered and charged (both doors alike), for the check that the walk reaches real answers. */
const outcomes: string[] = [];

let app: TestApp;
let rest: { workspaceId: string; apiKey: string };
let dash: Seat;

// Sources outside the machine are never asked: each is pointed at a closed port on 127.0.0.1, so a lookup that needs
// one answers 503 at once, the same way through both doors (a fresh-clone CI run once saw RDAP fail through one door
// with a timeout and through the other with ENOTFOUND when it tried the real server's name).
const CLOSED = "http://127.0.0.1:9";
const UPSTREAMS = [
  "SERVICE_RDAP_BASE_URL",
  "SERVICE_CT_URL",
  "SERVICE_NPM_REGISTRY_URL",
  "SERVICE_NPM_ADVISORY_URL",
  "SERVICE_NPM_DOWNLOADS_URL",
  "SERVICE_OSV_API_URL",
  "SERVICE_PYPI_URL",
  "SERVICE_MAVEN_REPOSITORY_URL",
  "SERVICE_GO_PROXY_URL",
  "SERVICE_PACKAGIST_URL",
  "SERVICE_EPSS_URL",
];

beforeAll(async () => {
  for (const name of UPSTREAMS) process.env[name] = CLOSED;
  app = await createTestApp();
  await warmIpFeeds();
  rest = await app.seedWorkspace({ plans: PLANS, name: "rest door" });
  dash = (await ownerAndMember(app.db, "dashdoor", PLANS)).member;
}, 180_000);

async function lastHistory(workspaceId: string) {
  await flushLookupHistory();
  const row = await app.db.lookupHistory.findFirst({
    where: { workspaceId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  if (!row) return null;
  return {
    endpoint: row.endpoint,
    target: row.target,
    summary: stable(row.summary),
    units: row.units,
    status: row.status,
    code: row.code,
  };
}

async function historyCount(workspaceId: string) {
  await flushLookupHistory();
  return app.db.lookupHistory.count({ where: { workspaceId } });
}

describe("every metered procedure through both doors", () => {
  it("walks at least the lookups a newcomer would name", () => {
    const paths = new Set(metered.map((s) => s.route.procedurePath));
    for (const p of ["geo.ipGeo", "ip.ipLookup", "assessment.assess", "cidr.cidrCheck", "blocklists.blocklistsCheck"])
      expect(paths, p).toContain(p);
    expect(metered.length).toBeGreaterThan(25);
  });

  it.each(metered.map((s) => [`${s.method} ${s.route.template} (${s.route.procedurePath})`, s] as const))(
    "%s: same answer, same charge, same history row",
    async (_name, s) => {
      const proc = s.route.procedurePath;
      const kind = s.route.type;
      const input = dashboardInput(s);
      const body = INPUTS[s.route.template]?.rest ?? s.body;

      const restUsed = await app.used(rest.workspaceId);
      const restRows = await historyCount(rest.workspaceId);
      const r = await app.request(s.method, s.path, { key: rest.apiKey, body });
      const restCharged = (await app.used(rest.workspaceId)) - restUsed;

      const dashUsed = await app.used(dash.workspaceId);
      const dashRows = await historyCount(dash.workspaceId);
      const d = await call(dash, proc, input, kind);
      const dashCharged = (await app.used(dash.workspaceId)) - dashUsed;

      const restAnswer = r.status < 300 ? stable(r.body) : { code: r.body?.error?.code };
      const dashAnswer = d.status < 300 ? stable(d.data) : { code: d.code };
      expect({ status: d.status, answer: dashAnswer }, `${proc}: the dashboard's answer is /v1's`).toEqual({
        status: r.status,
        answer: restAnswer,
      });
      expect(dashCharged, `${proc}: units charged`).toBe(restCharged);
      outcomes.push(`${proc} ${r.status} ${restCharged}`);
      const restWrote = (await historyCount(rest.workspaceId)) - restRows;
      const dashWrote = (await historyCount(dash.workspaceId)) - dashRows;
      expect(dashWrote, `${proc}: history rows written`).toBe(restWrote);
      if (restWrote > 0)
        expect(await lastHistory(dash.workspaceId), `${proc}: the history row`).toEqual(
          await lastHistory(rest.workspaceId),
        );
    },
    60_000,
  );

  it("sets aside only what varies from call to call (the comparison can fail)", () => {
    const a = { score: 5, request_id: "req_1", at: "2026-01-01T00:00:00.000Z", list: [{ id: "x", ok: true }] };
    const b = { score: 5, request_id: "req_2", at: "2026-02-01T00:00:00Z", list: [{ id: "y", ok: true }] };
    expect(stable(a)).toEqual(stable(b));
    expect(stable({ ...a, score: 6 })).not.toEqual(stable(b));
    expect(stable({ ...a, list: [{ id: "x", ok: false }] })).not.toEqual(stable(b));
  });

  it("reaches answers and charges, not only refusals (the walk above compares something)", () => {
    const answered = outcomes.filter((o) => / 20[02] [1-9]\d*$/.test(o));
    expect(outcomes).toHaveLength(metered.length);
    expect(answered.length, outcomes.join("\n")).toBeGreaterThanOrEqual(12);
    // The same 500 through both doors is the same bug twice, not the same answer.
    expect(outcomes.filter((o) => / 500 \d+$/.test(o))).toEqual([]);
    expect(
      outcomes.filter((o) => / 503 0$/.test(o)).length,
      "answers given back (a source that did not answer)",
    ).toBeGreaterThan(0);
  });
});
