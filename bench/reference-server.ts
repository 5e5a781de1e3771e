// The references: the same domain functions behind a bare node:http server, with no authentication, quota,
// ledger, history or framework. Routes (as below /v1): GET /ip/{ip}/geo (lookupGeo), GET /ip/{ip}
// (getIpReputation), POST /blocklists/check (checkBlocklists), GET /vulnerabilities/npm/{package}/
// (getNpmReportOrThrow), POST /assess and POST /assess/login (the assessment's gathering and decide(), events in
// memory: bench/reference-assess.ts; /assess/login in a workspace with the login scenario's list rule). Upstream
// settings (DNS servers, package sources) come from the environment as for the service. Run as its own process: `PORT=4000 tsx bench/reference-server.ts`.
import http from "node:http";
import { partnerFixtures } from "./assess-fixtures";
import { referenceAssess, referenceWorkspace } from "./reference-assess";
import { checkBlocklists } from "../server/blocklists/check";
import { AppError } from "../server/errors";
import { lookupGeo } from "../server/geo/lookup";
import { getIpReputation, warmIpFeeds } from "../server/ip/reputation";
import { getNpmReportOrThrow } from "../server/vulnerabilities";

type Handler = (param: string, body: unknown) => unknown;

const checkoutWorkspace = referenceWorkspace();
const loginWorkspace = referenceWorkspace(partnerFixtures());

const ROUTES: Array<{ method: string; pattern: RegExp; handler: Handler }> = [
  { method: "GET", pattern: /^\/ip\/([^/?#]+)\/geo\/?$/, handler: (ip) => lookupGeo(ip) },
  { method: "GET", pattern: /^\/ip\/([^/?#]+)\/?$/, handler: (ip) => getIpReputation(ip) },
  {
    method: "POST",
    pattern: /^\/blocklists\/check\/?$/,
    handler: (_p, body) => {
      const targets = (body as { targets?: unknown } | null)?.targets;
      if (!Array.isArray(targets) || targets.length < 1 || targets.length > 20)
        throw new AppError("INVALID_REQUEST", "1 to 20 targets.");
      return checkBlocklists(targets.map(String));
    },
  },
  {
    method: "GET",
    pattern: /^\/vulnerabilities\/npm\/([^?#]+?)\/?$/,
    handler: (name) => getNpmReportOrThrow({ name }),
  },
  { method: "POST", pattern: /^\/assess\/?$/, handler: (_p, body) => referenceAssess(checkoutWorkspace, body) },
  { method: "POST", pattern: /^\/assess\/login\/?$/, handler: (_p, body) => referenceAssess(loginWorkspace, body) },
];

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : null;
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const pathname = (req.url ?? "/").split("?")[0]!;
  for (const route of ROUTES) {
    const m = req.method === route.method ? route.pattern.exec(pathname) : null;
    if (!m) continue;
    try {
      const param = m[1] === undefined ? "" : decodeURIComponent(m[1]);
      const body = req.method === "POST" ? await readJson(req) : null;
      return send(res, 200, await route.handler(param, body));
    } catch (err) {
      // lookupGeo throws a plain error for a bad address; everything else throws AppError.
      const status = err instanceof AppError ? err.status : 400;
      const code = err instanceof AppError ? err.appCode : "INVALID_REQUEST";
      return send(res, status, { error: { code, message: (err as Error).message } });
    }
  }
  send(res, 404, { error: { code: "LOOKUP_NOT_FOUND", message: "No such route." } });
}

const server = http.createServer((req, res) => void handle(req, res));

async function main(): Promise<void> {
  // Load shipped data before listening, as the service does at start-up (MMDB files, ASN tables, lists).
  lookupGeo("8.8.8.8");
  lookupGeo("2001:4860:4860::8888");
  await warmIpFeeds();
  const port = Number(process.env.PORT ?? "4000");
  server.keepAliveTimeout = 65_000;
  server.listen(port, "127.0.0.1", () => console.log(`reference server on http://127.0.0.1:${port}`));
}

for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => server.close(() => process.exit(0)));
main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
