// The Prometheus scrape: where it is served, counters moving by the right amounts after known requests, and no
// identifying value in any label.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { GET as metricsRoute } from "../../app/metrics/route";
import { handleRestRequest } from "../../server/api/rest/handler";
import { brokenUploadAssess } from "../http/broken-upload";
import { startMetricsListener, stopMetricsListener } from "../../server/operate/metrics-listener";
import { registerMetricSources } from "../../server/startup/sources";
import { createTestApp, type TestApp } from "../harness";
import { useFakePackageSources } from "../vulnerabilities/fake-sources";

type Family = {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string; count?: string }[];
};

useFakePackageSources();
let app: TestApp;
let ws: { workspaceId: string; apiKey: string; apiKeyId: string };
const TOKEN = "scrape-token-for-tests";

beforeAll(async () => {
  app = await createTestApp();
  ws = await app.seedWorkspace({ plans: ["suite_business"] });
  registerMetricSources(app.db);
});

afterEach(async () => {
  delete process.env.SERVICE_METRICS_TOKEN;
  delete process.env.SERVICE_METRICS_PORT;
  await stopMetricsListener();
});

afterAll(() => stopMetricsListener());

async function scrape(): Promise<Family[]> {
  process.env.SERVICE_METRICS_TOKEN = TOKEN;
  const res = await metricsRoute(
    new Request("http://127.0.0.1/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } }),
  );
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  expect(res.headers.get("cache-control")).toBe("no-store");
  return parsePrometheusTextFormat(await res.text()) as Family[];
}

function value(families: Family[], name: string, labels: Record<string, string>): number {
  const fam = families.find((f) => f.name === name);
  const m = fam?.metrics.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));
  return m ? Number(m.value ?? m.count ?? 0) : 0;
}

describe("/metrics on the main port", () => {
  it("is 404 when no token is configured", async () => {
    const res = await metricsRoute(new Request("http://127.0.0.1/metrics"));
    expect(res.status).toBe(404);
  });

  it("is 404 without the bearer token or with a wrong one", async () => {
    process.env.SERVICE_METRICS_TOKEN = TOKEN;
    expect((await metricsRoute(new Request("http://127.0.0.1/metrics"))).status).toBe(404);
    expect(
      (await metricsRoute(new Request("http://127.0.0.1/metrics", { headers: { Authorization: "Bearer wrong" } })))
        .status,
    ).toBe(404);
  });

  it("is 404 when SERVICE_METRICS_PORT serves the metrics elsewhere, which still requires the token", async () => {
    process.env.SERVICE_METRICS_TOKEN = TOKEN;
    process.env.SERVICE_METRICS_PORT = "0";
    const main = await metricsRoute(
      new Request("http://127.0.0.1/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } }),
    );
    expect(main.status).toBe(404);
    process.env.SERVICE_METRICS_PORT = "39417";
    const server = await startMetricsListener();
    expect(server).not.toBeNull();
    const base = "http://127.0.0.1:39417";
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    const ok = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("service_http_requests_total");
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/v1/openapi.json`)).status).toBe(404);
  });
});

describe("counters after known requests", () => {
  it("count requests by route template and status, units by capability and plan, refusals by code", async () => {
    const before = await scrape();
    const route = "/ip/{ip}/geo";
    const ok0 = value(before, "service_http_requests_total", { method: "GET", route, status: "200" });
    const unauth0 = value(before, "service_http_requests_total", { method: "GET", route, status: "401" });
    const units0 = value(before, "service_lookup_units_reserved_total", {
      capability: "geolocation",
      plan: "suite_business",
    });
    const refused0 = value(before, "service_admissions_refused_total", { code: "UNAUTHORIZED" });
    const notFound0 = value(before, "service_http_requests_total", {
      method: "GET",
      route: "unmatched",
      status: "404",
    });

    for (const ip of ["8.8.8.8", "1.1.1.1", "9.9.9.9"])
      expect((await app.request("GET", `/v1/ip/${ip}/geo`, { key: ws.apiKey })).status).toBe(200);
    expect((await app.request("GET", "/v1/ip/8.8.4.4/geo")).status).toBe(401);
    expect((await app.request("GET", "/v1/no/such/route")).status).toBe(404);

    const after = await scrape();
    expect(value(after, "service_http_requests_total", { method: "GET", route, status: "200" }) - ok0).toBe(3);
    expect(value(after, "service_http_requests_total", { method: "GET", route, status: "401" }) - unauth0).toBe(1);
    expect(
      value(after, "service_lookup_units_reserved_total", { capability: "geolocation", plan: "suite_business" }) -
        units0,
    ).toBe(3);
    expect(value(after, "service_admissions_refused_total", { code: "UNAUTHORIZED" }) - refused0).toBe(1);
    expect(
      value(after, "service_http_requests_total", { method: "GET", route: "unmatched", status: "404" }) - notFound0,
    ).toBe(1);
    const hist = after.find((f) => f.name === "service_http_request_duration_seconds");
    expect(hist?.type).toBe("HISTOGRAM");
    expect(after.find((f) => f.name === "process_cpu_user_seconds_total")).toBeDefined();
    expect(after.find((f) => f.name === "service_feed_records")?.metrics.length).toBeGreaterThan(0);
    const ages = after.find((f) => f.name === "service_feed_age_seconds")?.metrics ?? [];
    expect(ages.length).toBeGreaterThan(0);
    // A feed that holds no data yet (a list shipped empty) has no age sample, never the seconds since 1970.
    expect(ages.map((m) => m.labels?.feed)).not.toContain("spamhaus-drop");
    for (const m of ages) expect(Number(m.value)).toBeLessThan(20 * 365 * 86_400);
    expect(
      after.find((f) => f.name === "service_feed_records")?.metrics.find((m) => m.labels?.feed === "spamhaus-drop")
        ?.value,
    ).toBe("0");
    // The PostgreSQL pool is observable (in use, waiting); the embedded database has no pool to report.
    const pool = after.find((f) => f.name === "service_db_pool_connections");
    if (process.env.DATABASE_URL)
      expect(pool?.metrics.map((m) => m.labels?.state).sort()).toEqual(["in_use", "total", "waiting"]);
    else expect(pool?.metrics ?? []).toEqual([]);
  });

  it("count a request whose client went away mid-upload as 499, not as a refused admission", async () => {
    const route = "/assess";
    const before = await scrape();
    const gone0 = value(before, "service_http_requests_total", { method: "POST", route, status: "499" });
    const bad0 = value(before, "service_http_requests_total", { method: "POST", route, status: "400" });
    const refused0 = value(before, "service_admissions_refused_total", { code: "INVALID_REQUEST" });
    const res = await handleRestRequest(brokenUploadAssess(ws.apiKey));
    // The door still answers 400 (the production server finds the connection gone and writes nothing).
    expect(res.status).toBe(400);
    // Input that arrived and is wrong stays a 400 and a refusal.
    expect((await app.request("POST", "/v1/assess", { key: ws.apiKey, body: { event: "no-such-event" } })).status).toBe(
      400,
    );
    // An earlier step's answer stands: a plan without the capability is 403 with or without the rest of the body.
    const forbidden0 = value(before, "service_http_requests_total", { method: "POST", route, status: "403" });
    const free = await app.seedWorkspace({ plans: ["free"] });
    expect((await handleRestRequest(brokenUploadAssess(free.apiKey))).status).toBe(403);
    const after = await scrape();
    expect(value(after, "service_http_requests_total", { method: "POST", route, status: "499" }) - gone0).toBe(1);
    expect(value(after, "service_http_requests_total", { method: "POST", route, status: "400" }) - bad0).toBe(1);
    expect(value(after, "service_http_requests_total", { method: "POST", route, status: "403" }) - forbidden0).toBe(1);
    expect(value(after, "service_admissions_refused_total", { code: "INVALID_REQUEST" }) - refused0).toBe(1);
  });

  it("count a charged not-found answer as a request, not as a refused admission", async () => {
    const route = "/vulnerabilities/npm/{package}/";
    const before = await scrape();
    const notFound0 = value(before, "service_http_requests_total", { method: "GET", route, status: "404" });
    const refused0 = value(before, "service_admissions_refused_total", { code: "PACKAGE_NOT_FOUND" });
    const units0 = await app.used(ws.workspaceId);
    const res = await app.request("GET", "/v1/vulnerabilities/npm/does-not-exist/", { key: ws.apiKey });
    expect([res.status, res.body.error.code]).toEqual([404, "PACKAGE_NOT_FOUND"]);
    // The source's "not found" is an answer: admitted and charged (README "Charging").
    expect((await app.used(ws.workspaceId)) - units0).toBe(1);
    const after = await scrape();
    expect(value(after, "service_http_requests_total", { method: "GET", route, status: "404" }) - notFound0).toBe(1);
    expect(value(after, "service_admissions_refused_total", { code: "PACKAGE_NOT_FOUND" }) - refused0).toBe(0);
  });

  // A refused preflight was labelled route="unmatched", as if its path matched no route; it is labelled by the route
  // it asked about, as an accepted one is. A preflight for a path or method the API does not serve stays unmatched.
  it("count a CORS preflight under the route it asked about, accepted or refused", async () => {
    const route = "/ip/{ip}/geo";
    const preflight = (origin: string, method = "GET", path = "/v1/ip/8.8.8.8/geo") =>
      app.request("OPTIONS", path, { headers: { Origin: origin, "Access-Control-Request-Method": method } });
    const count = (families: Family[], status: string, r = route) =>
      value(families, "service_http_requests_total", { method: "OPTIONS", route: r, status });
    const before = await scrape();
    process.env.SERVICE_ALLOWED_ORIGINS = "https://app.example";
    try {
      expect((await preflight("https://app.example")).status).toBe(204);
      expect((await preflight("https://elsewhere.example")).status).toBe(403);
      expect((await preflight("https://app.example", "DELETE")).status).toBe(404);
    } finally {
      delete process.env.SERVICE_ALLOWED_ORIGINS;
    }
    const after = await scrape();
    expect([count(after, "204") - count(before, "204"), count(after, "403") - count(before, "403")]).toEqual([1, 1]);
    expect(count(after, "404", "unmatched") - count(before, "404", "unmatched")).toBe(1);
  });

  it("never puts a key, workspace id, email or address in a label", async () => {
    await app.request("GET", "/v1/ip/203.0.113.9/geo", { key: ws.apiKey });
    await app.request("GET", "/v1/vulnerabilities/npm/someone%40example.com/", { key: ws.apiKey });
    const families = await scrape();
    const labelValues = families.flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
    expect(labelValues.length).toBeGreaterThan(0);
    for (const v of labelValues) {
      expect(v).not.toContain(ws.workspaceId);
      expect(v).not.toContain(ws.apiKey.slice(0, 12));
      expect(v).not.toMatch(/@/);
      expect(v).not.toMatch(/\b\d{1,3}(\.\d{1,3}){3}\b/);
      expect(v).not.toMatch(/^ws_|^key_|^sk_/);
    }
  });
});

// The scrape as Prometheus' own linter reads it (issue 22, item 14: prom-client's `nodejs_active_*_total` gauges
// made `promtool check metrics` exit 3). promtool comes from Debian's `prometheus` package; CI installs it.
describe("promtool check metrics", () => {
  it("finds nothing in a scrape after known, unknown-path, unknown-method and refused preflight requests", async () => {
    const { spawnSync } = await import("node:child_process");
    const { existsSync } = await import("node:fs");
    const promtool = ["/usr/bin/promtool", "/usr/local/bin/promtool"].find((p) => existsSync(p));
    expect(
      promtool,
      "promtool not found: install Debian's `prometheus` package (apt-get install prometheus)",
    ).toBeDefined();
    await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey });
    await app.request("GET", "/v1/no/such/route");
    const before = value(await scrape(), "service_http_requests_total", { method: "other", route: "unmatched" });
    expect((await app.request("PROPFIND", "/v1/ip/8.8.8.8/geo")).status).toBe(404);
    expect((await app.request("BREW", "/v1/coffee")).status).toBe(404);
    const refusedPreflight = await app.request("OPTIONS", "/v1/ip/8.8.8.8/geo", {
      headers: { Origin: "https://elsewhere.example", "Access-Control-Request-Method": "GET" },
    });
    expect(refusedPreflight.status).toBe(403);
    process.env.SERVICE_METRICS_TOKEN = TOKEN;
    const text = await (
      await metricsRoute(new Request("http://127.0.0.1/metrics", { headers: { Authorization: `Bearer ${TOKEN}` } }))
    ).text();
    const families = parsePrometheusTextFormat(text) as Family[];
    // Any method token a client sends is counted under one bounded label value.
    expect(value(families, "service_http_requests_total", { method: "other", route: "unmatched" }) - before).toBe(2);
    const methods = new Set(
      families.find((f) => f.name === "service_http_requests_total")!.metrics.map((m) => m.labels?.method),
    );
    expect(
      [...methods].every((m) => ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"].includes(m!)),
    ).toBe(true);
    const r = spawnSync(promtool!, ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(`${r.stdout}${r.stderr}`.trim()).toBe("");
    expect(r.status).toBe(0);
  });
});
