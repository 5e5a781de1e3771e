// One HTTP server on 127.0.0.1 that plays every package source: the npm registry (packuments and the bulk
// advisory endpoint), npm's download counts, OSV, PyPI, a Maven repository, the Go module proxy, Packagist and
// the CISA KEV feed, each under its own path prefix. A test can take any source down (503) or make it hang, take
// the npm registry down for some packages only, and read how many requests each source received.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NPM_BULK, NPM_DOWNLOADS, NPM_PACKUMENTS } from "./fixtures-npm";
import { OSV_RECORDS, osvRecordsFor } from "./fixtures-osv";
import { GO_MODULES, MAVEN_METADATA, MAVEN_POMS, PACKAGIST, PYPI_PROJECTS } from "./fixtures-registries";

export type FakeSource = "npm" | "downloads" | "osv" | "pypi" | "maven" | "go" | "packagist" | "kev";

export type FakePackageSources = {
  baseUrl: string;
  /** Sources answering 503 / never answering. */
  down: Set<FakeSource>;
  hang: Set<FakeSource>;
  /** npm package names whose registry document answers 503 (the registry failing for these packages only). */
  downPackages: Set<string>;
  /**
   * npm package names whose next registry request is never answered (a connection that stalls once, as a burst of
   * new connections through a congested network does); the name leaves the set with that request.
   */
  stallOncePackages: Set<string>;
  requests: Record<FakeSource, number>;
  /** Body served at /kev/feed.json (CISA's JSON or CSV format). */
  kevBody: string;
  /** Environment pointing every package source at this server. */
  env: Record<string, string>;
  close(): Promise<void>;
};

const OSV_PAGE_SIZE = 30;

function send(res: ServerResponse, status: number, body: unknown, type = "application/json") {
  res.writeHead(status, { "content-type": type });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : null;
}

function osvBatchPage(ecosystem: string, name: string, token?: string) {
  const all = osvRecordsFor(ecosystem, name);
  const start = token ? Number(token) : 0;
  const page = all.slice(start, start + OSV_PAGE_SIZE);
  const next = start + OSV_PAGE_SIZE < all.length ? String(start + OSV_PAGE_SIZE) : undefined;
  return { page, next };
}

async function route(
  state: FakePackageSources,
  source: FakeSource,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
) {
  switch (source) {
    case "npm": {
      if (req.method === "POST" && path === "/-/npm/v1/security/advisories/bulk") {
        const body = (await readBody(req)) as Record<string, string[]>;
        const out: Record<string, unknown> = {};
        for (const name of Object.keys(body)) if (NPM_BULK[name]) out[name] = NPM_BULK[name];
        return send(res, 200, out);
      }
      const name = decodeURIComponent(path.slice(1));
      if (state.downPackages.has(name)) return send(res, 503, { error: "Service Unavailable" });
      if (state.stallOncePackages.delete(name)) return; // never answered: the client's timeout must fire
      return NPM_PACKUMENTS[name] ? send(res, 200, NPM_PACKUMENTS[name]) : send(res, 404, { error: "Not found" });
    }
    case "downloads": {
      const name = decodeURIComponent(path.replace("/downloads/point/last-week/", ""));
      if (NPM_DOWNLOADS[name] === undefined) return send(res, 404, { error: `package ${name} not found` });
      return send(res, 200, { downloads: NPM_DOWNLOADS[name], start: "2024-06-01", end: "2024-06-07", package: name });
    }
    case "osv": {
      if (req.method === "POST" && path === "/v1/querybatch") {
        const body = (await readBody(req)) as {
          queries: Array<{ package: { name: string; ecosystem: string }; page_token?: string }>;
        };
        const results = body.queries.map((q) => {
          const { page, next } = osvBatchPage(q.package.ecosystem, q.package.name, q.page_token);
          return page.length
            ? {
                vulns: page.map((v) => ({ id: v.id, modified: v.modified })),
                ...(next ? { next_page_token: next } : {}),
              }
            : {};
        });
        return send(res, 200, { results });
      }
      if (req.method === "POST" && path === "/v1/query") {
        const q = (await readBody(req)) as { package: { name: string; ecosystem: string }; page_token?: string };
        const { page, next } = osvBatchPage(q.package.ecosystem, q.package.name, q.page_token);
        return send(res, 200, page.length ? { vulns: page, ...(next ? { next_page_token: next } : {}) } : {});
      }
      const id = decodeURIComponent(path.replace("/v1/vulns/", ""));
      const rec = OSV_RECORDS.get(id);
      return rec ? send(res, 200, rec) : send(res, 404, { code: 5, message: "Bug not found." });
    }
    case "pypi": {
      const m = /^\/pypi\/([^/]+)\/json$/.exec(path);
      const project = m ? PYPI_PROJECTS[decodeURIComponent(m[1]).toLowerCase()] : undefined;
      return project ? send(res, 200, project) : send(res, 404, { message: "Not Found" });
    }
    case "maven": {
      const meta = /^\/(.+)\/maven-metadata\.xml$/.exec(path);
      if (meta && MAVEN_METADATA[meta[1]]) return send(res, 200, MAVEN_METADATA[meta[1]], "text/xml");
      const pom = MAVEN_POMS[path.slice(1)];
      return pom ? send(res, 200, pom, "text/xml") : send(res, 404, "Not Found", "text/plain");
    }
    case "go": {
      const m = /^\/(.+?)\/@(v\/list|latest|v\/(.+)\.info)$/.exec(path);
      const mod = m ? GO_MODULES[decodeURIComponent(m[1])] : undefined;
      if (!m || !mod) return send(res, 410, "not found: module unknown", "text/plain");
      if (m[2] === "v/list") return send(res, 200, mod.list.join("\n") + "\n", "text/plain");
      if (m[2] === "latest") return send(res, 200, mod.latest);
      const v = decodeURIComponent(m[3]);
      return mod.times[v]
        ? send(res, 200, { Version: v, Time: mod.times[v] })
        : send(res, 404, "not found", "text/plain");
    }
    case "packagist": {
      const m = /^\/p2\/([^/]+)\/([^/]+)\.json$/.exec(path);
      const doc = m ? PACKAGIST[`${m[1]}/${m[2]}`] : undefined;
      return doc ? send(res, 200, doc) : send(res, 404, { status: "error", message: "Package not found" });
    }
    case "kev":
      return send(res, 200, state.kevBody, state.kevBody.startsWith("{") ? "application/json" : "text/csv");
  }
}

const SOURCES: FakeSource[] = ["npm", "downloads", "osv", "pypi", "maven", "go", "packagist", "kev"];

export async function startFakePackageSources(): Promise<FakePackageSources> {
  let server: Server;
  const state = {
    down: new Set<FakeSource>(),
    hang: new Set<FakeSource>(),
    downPackages: new Set<string>(),
    stallOncePackages: new Set<string>(),
    requests: Object.fromEntries(SOURCES.map((s) => [s, 0])) as Record<FakeSource, number>,
    kevBody: "",
  } as FakePackageSources;
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const [, prefix, ...rest] = url.pathname.split("/");
    const source = prefix as FakeSource;
    if (!SOURCES.includes(source)) return send(res, 404, { error: "no such fake source" });
    state.requests[source]++;
    if (state.hang.has(source)) return; // never answers: the client's timeout must fire
    if (state.down.has(source)) return send(res, 503, { error: "Service Unavailable" });
    // Keep the raw (still-encoded) path: registries receive "@scope%2fname".
    const rawPath = "/" + (req.url ?? "/").split("?")[0].split("/").slice(2).join("/");
    route(state, source, rest.length ? rawPath : "/", req, res).catch((err) => send(res, 500, { error: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.baseUrl = base;
  state.env = {
    SERVICE_NPM_REGISTRY_URL: `${base}/npm`,
    SERVICE_NPM_DOWNLOADS_URL: `${base}/downloads`,
    SERVICE_OSV_API_URL: `${base}/osv`,
    SERVICE_PYPI_URL: `${base}/pypi`,
    SERVICE_MAVEN_REPOSITORY_URL: `${base}/maven`,
    SERVICE_GO_PROXY_URL: `${base}/go`,
    SERVICE_PACKAGIST_URL: `${base}/packagist`,
    SERVICE_FEED_KEV_URL: `${base}/kev/feed.json`,
  };
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
