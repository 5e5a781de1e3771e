// The reference: the same geolocation lookup behind a bare node:http server, with no authentication, quota,
// ledger, history or framework. `GET /ip/{ip}/geo` answers lookupGeo(ip) as JSON; anything else is 404.
// Run as its own process: `PORT=4000 tsx bench/reference-server.ts`.
import http from "node:http";
import { lookupGeo } from "../server/geo/lookup";

const ROUTE = /^\/ip\/([^/?#]+)\/geo\/?(?:\?.*)?$/;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

const server = http.createServer((req, res) => {
  const m = req.method === "GET" ? ROUTE.exec(req.url ?? "") : null;
  if (!m) return send(res, 404, { error: { code: "LOOKUP_NOT_FOUND", message: "No such route." } });
  let ip: string;
  try {
    ip = decodeURIComponent(m[1]!);
  } catch {
    return send(res, 400, { error: { code: "INVALID_REQUEST", message: "Bad percent-encoding." } });
  }
  let result: unknown;
  try {
    result = lookupGeo(ip);
  } catch {
    return send(res, 400, { error: { code: "INVALID_REQUEST", message: "Not a valid IP address." } });
  }
  send(res, 200, result);
});

// Load both MMDB files before listening, as the service does on its first lookups.
lookupGeo("8.8.8.8");
lookupGeo("2001:4860:4860::8888");

const port = Number(process.env.PORT ?? "4000");
server.keepAliveTimeout = 65_000;
server.listen(port, "127.0.0.1", () => console.log(`reference server on http://127.0.0.1:${port}`));
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => server.close(() => process.exit(0)));
