// The probe agent (`npm run probe-agent`): a small HTTP server that runs the online check's local probe for a
// remote service, so one install can probe from several regions. It speaks the agent protocol of probe.ts
// (POST {"url"} -> one probe result), requires the bearer token the service sends (SERVICE_PROBE_TOKEN), vets every
// target with the same SSRF guard, limits requests per client address, and serves /healthz; nothing else of the
// service runs in it (no database, no API).
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { toErrorBody } from "../errors";
import { runLocalProbe } from "./probe";

export interface ProbeAgentOptions {
  token: string;
  /** Probes allowed per client address per window. */
  rateLimit: number;
  windowSeconds: number;
  /** Called once per answered request (the script logs it). */
  onRequest?: (line: { method: string; path: string; status: number; duration_ms: number }) => void;
}

const MAX_BODY_BYTES = 8 * 1024;

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): number {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers });
  res.end(JSON.stringify(body));
  return status;
}

const error = (code: string, message: string) => ({ error: { code, message } });

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!m) return false;
  const a = Buffer.from(m[1].trim());
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function createProbeAgent(opts: ProbeAgentOptions): Server {
  // Fixed windows per client address, in memory: an agent is one process and keeps no state elsewhere.
  const windows = new Map<string, { start: number; count: number }>();
  const admit = (client: string): number | null => {
    const now = Date.now();
    const w = windows.get(client);
    if (!w || now - w.start >= opts.windowSeconds * 1000) {
      if (windows.size > 10_000) windows.clear();
      windows.set(client, { start: now, count: 1 });
      return null;
    }
    if (w.count >= opts.rateLimit) return Math.max(1, Math.ceil((w.start + opts.windowSeconds * 1000 - now) / 1000));
    w.count++;
    return null;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/healthz" && (req.method === "GET" || req.method === "HEAD")) return send(res, 200, { status: "ok" });
    if (path !== "/probe" && path !== "/") return send(res, 404, error("NOT_FOUND", "Not found."));
    if (req.method !== "POST") return send(res, 405, error("METHOD_NOT_ALLOWED", "Use POST."), { Allow: "POST" });
    if (!tokenMatches(req.headers.authorization, opts.token))
      // RFC 9110: a 401 names its scheme; RFC 6750 words a missing and a wrong bearer token.
      return send(res, 401, error("UNAUTHORIZED", "Bearer token missing or wrong."), {
        "WWW-Authenticate": /^bearer\s/i.test(req.headers.authorization ?? "")
          ? 'Bearer realm="probe", error="invalid_token"'
          : 'Bearer realm="probe"',
      });
    const retryAfter = admit(req.socket.remoteAddress ?? "unknown");
    if (retryAfter !== null)
      return send(res, 429, error("RATE_LIMITED", `Too many probes; retry in ${retryAfter} s.`), {
        "Retry-After": String(retryAfter),
      });
    const text = await readBody(req);
    if (text === null)
      return send(res, 400, error("INVALID_REQUEST", `The body is larger than ${MAX_BODY_BYTES} bytes.`));
    let url: unknown;
    try {
      url = (JSON.parse(text) as { url?: unknown }).url;
    } catch {
      return send(res, 400, error("INVALID_REQUEST", 'Send {"url": "https://..."} as JSON.'));
    }
    if (typeof url !== "string" || !url)
      return send(res, 400, error("INVALID_REQUEST", 'Send {"url": "https://..."} as JSON.'));
    try {
      const { location: _location, ...result } = await runLocalProbe(url);
      return send(res, 200, result);
    } catch (err) {
      // A target the SSRF guard refuses (TARGET_FORBIDDEN) is the caller's error, never a probe.
      const { status, body } = toErrorBody(err);
      return send(res, status, body);
    }
  };

  return createServer((req, res) => {
    const started = performance.now();
    handle(req, res)
      .catch(() => send(res, 500, error("INTERNAL_ERROR", "Internal error.")))
      .then((status) =>
        opts.onRequest?.({
          method: req.method ?? "",
          path: (req.url ?? "/").split("?")[0],
          status,
          duration_ms: Math.round(performance.now() - started),
        }),
      );
  });
}
