// The local upstreams of the dependency-scan benchmark, in a process of their own (so the service's timings never
// include the fakes' work): one HTTP server on 127.0.0.1 playing the npm registry (/npm/{name}: full packuments),
// npm's download counts (/api/downloads/point/last-week/{name}), OSV (/osv/v1/querybatch, /osv/v1/vulns/{id}) and
// FIRST's EPSS API (/epss/data/v1/epss?cve=...), over the world of bench/lockfile-world.ts. Every answer waits a
// random latency first (BENCH_LOCKFILE_LATENCY_MS, "min-max" or one number of ms; default 20-50), like a nearby
// real upstream, so a cold scan's upstream round trips cost what they would.
// The registry documents and download counts carry an ETag and a Last-Modified, as the npm registry's do, and a GET
// that names either (If-None-Match, If-Modified-Since) is answered 304 without a body; OSV's records and EPSS answer
// without validators.
// `tsx bench/lockfile-fakes.ts` prints one JSON line {env, statsUrl, build} and serves GET statsUrl ->
// {requests: {source: count}, bytes: {source: bytes}, notModified: {source: count}} (running totals since start).
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { buildWorld, DEFAULT_WORLD } from "./lockfile-world";
import { latencyRange, worldOptionsFromEnv } from "./lockfile";

type Source = "npm" | "downloads" | "osv-querybatch" | "osv-vulns" | "epss" | "other";

async function main(): Promise<void> {
  const t0 = performance.now();
  const world = buildWorld(worldOptionsFromEnv() ?? DEFAULT_WORLD);
  const buildMs = performance.now() - t0;
  const [minMs, maxMs] = latencyRange();
  const requests: Record<Source, number> = {
    npm: 0,
    downloads: 0,
    "osv-querybatch": 0,
    "osv-vulns": 0,
    epss: 0,
    other: 0,
  };
  const bytes: Record<Source, number> = { ...requests };
  const notModified: Record<Source, number> = { ...requests };
  // Every document of the world was last changed at the same moment; its ETag is its content's hash.
  const LAST_MODIFIED = "Fri, 20 Nov 2026 00:00:00 GMT";
  const etagOf = (body: string) => `"${createHash("sha1").update(body).digest("base64url")}"`;
  const delay = () => new Promise((r) => setTimeout(r, minMs + Math.random() * (maxMs - minMs)));

  const readBody = async (req: http.IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };

  type Answer = { source: Source; status: number; body: string; validated?: boolean };

  async function answer(req: http.IncomingMessage): Promise<Answer> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const p = url.pathname;
    if (p.startsWith("/npm/")) {
      const doc = world.packuments.get(decodeURIComponent(p.slice("/npm/".length)));
      return { source: "npm", status: doc ? 200 : 404, body: doc ?? '{"error":"Not found"}', validated: !!doc };
    }
    if (p.startsWith("/api/downloads/point/last-week/")) {
      const name = decodeURIComponent(p.slice("/api/downloads/point/last-week/".length));
      const n = world.downloads.get(name);
      return n === undefined
        ? { source: "downloads", status: 404, body: JSON.stringify({ error: `package ${name} not found` }) }
        : {
            source: "downloads",
            status: 200,
            body: JSON.stringify({ downloads: n, start: "2026-11-14", end: "2026-11-20", package: name }),
            validated: true,
          };
    }
    if (p === "/osv/v1/querybatch" && req.method === "POST") {
      const body = JSON.parse(await readBody(req)) as {
        queries: { package: { name: string; ecosystem: string }; version?: string }[];
      };
      if (body.queries.length > 1000)
        return { source: "osv-querybatch", status: 400, body: '{"code":3,"message":"Too many queries."}' };
      const results = body.queries.map((q) => {
        const vulns = world.osvByVersion.get(`${q.package.name}@${q.version}`);
        return vulns ? { vulns } : {};
      });
      return { source: "osv-querybatch", status: 200, body: JSON.stringify({ results }) };
    }
    if (p.startsWith("/osv/v1/vulns/")) {
      const rec = world.osvRecords.get(decodeURIComponent(p.slice("/osv/v1/vulns/".length)));
      return { source: "osv-vulns", status: rec ? 200 : 404, body: rec ?? '{"code":5,"message":"Bug not found."}' };
    }
    if (p === "/epss/data/v1/epss") {
      const cves = (url.searchParams.get("cve") ?? "").split(",").filter(Boolean);
      const data = cves.map((cve) => {
        // A stable pseudo-score per CVE: most low, a few high, as EPSS is.
        let h = 0;
        for (const ch of cve) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
        const epss = ((h % 1000) / 1000) ** 4;
        return { cve, epss: epss.toFixed(9), percentile: Math.sqrt(epss).toFixed(9), date: "2026-11-20" };
      });
      return {
        source: "epss",
        status: 200,
        body: JSON.stringify({ status: "OK", "status-code": 200, version: "1.0", total: data.length, data }),
      };
    }
    return { source: "other", status: 404, body: '{"error":"no such fake"}' };
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      let out: Answer;
      try {
        out = await answer(req);
      } catch (err) {
        out = { source: "other", status: 500, body: JSON.stringify({ error: String(err) }) };
      }
      requests[out.source]++;
      await delay();
      if (out.validated && out.status === 200) {
        const etag = etagOf(out.body);
        const validators = { etag, "last-modified": LAST_MODIFIED };
        const ifNoneMatch = req.headers["if-none-match"];
        const ifModifiedSince = req.headers["if-modified-since"];
        // If-None-Match decides when sent (RFC 9110 13.2.2); If-Modified-Since only without it.
        const unchanged =
          ifNoneMatch !== undefined
            ? ifNoneMatch.split(",").some((t) => t.trim().replace(/^W\//, "") === etag)
            : ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Date.parse(LAST_MODIFIED);
        if (unchanged) {
          notModified[out.source]++;
          res.writeHead(304, validators);
          res.end();
          return;
        }
        const buf = Buffer.from(out.body, "utf8");
        bytes[out.source] += buf.byteLength;
        res.writeHead(200, { "content-type": "application/json", "content-length": buf.byteLength, ...validators });
        res.end(buf);
        return;
      }
      const buf = Buffer.from(out.body, "utf8");
      bytes[out.source] += buf.byteLength;
      res.writeHead(out.status, { "content-type": "application/json", "content-length": buf.byteLength });
      res.end(buf);
    })();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const stats = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ requests, bytes, notModified }));
  });
  await new Promise<void>((r) => stats.listen(0, "127.0.0.1", r));
  const statsUrl = `http://127.0.0.1:${(stats.address() as AddressInfo).port}/stats`;

  console.log(
    JSON.stringify({
      env: {
        SERVICE_NPM_REGISTRY_URL: `${base}/npm`,
        SERVICE_NPM_ADVISORY_URL: `${base}/npm`,
        SERVICE_NPM_DOWNLOADS_URL: `${base}/api`,
        SERVICE_OSV_API_URL: `${base}/osv`,
        SERVICE_EPSS_URL: `${base}/epss`,
      },
      statsUrl,
      build: {
        ms: Math.round(buildMs),
        packumentBytes: [...world.packuments.values()].reduce((n, d) => n + Buffer.byteLength(d), 0),
        osvRecords: world.osvRecords.size,
      },
    }),
  );
  const stop = () => {
    server.closeAllConnections();
    server.close();
    stats.close();
    process.exit(0);
  };
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, stop);
  // Started in a process group of its own: when the runner dies without stopping it, it stops by itself.
  const parent = Number(process.env.BENCH_LOCKFILE_PARENT_PID);
  if (Number.isInteger(parent) && parent > 0)
    setInterval(() => {
      try {
        process.kill(parent, 0);
      } catch {
        stop();
      }
    }, 2_000).unref();
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
