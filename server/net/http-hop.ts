// One HTTP(S) request to one vetted target, with timing per phase and a bounded body. Redirects are not followed
// here: safe-fetch.ts vets each hop before it is requested.
import http from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";
import { pinnedLookup } from "./connect";
import { connectTimeoutMs, trustedCas } from "./config";
import type { VettedTarget } from "./ssrf";
import type { TargetUrl } from "./target";

export type HopTiming = {
  dnsMs: number;
  connectMs: number | null;
  tlsMs: number | null;
  ttfbMs: number | null;
  totalMs: number;
};
export type TlsInfo = { authorized: boolean; error: string | null; protocol: string | null; cipher: string | null };

export type HopResponse = {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  address: string | null;
  tls: TlsInfo | null;
  timing: HopTiming;
};

export type HopOptions = {
  method: "GET" | "HEAD" | "POST";
  headers: Record<string, string>;
  body?: string | Buffer;
  maxBytes: number;
  verifyTls: boolean;
  signal: AbortSignal;
};

export const USER_AGENT = "Mozilla/5.0 (compatible; ServiceStatusCheck/1.0)";

const round = (ms: number) => Math.round(ms * 10) / 10;

function flattenHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

export function requestHop(u: TargetUrl, target: VettedTarget, opts: HopOptions): Promise<HopResponse> {
  const t0 = performance.now();
  let tConnect: number | null = null;
  let tSecure: number | null = null;
  const lib = u.scheme === "https" ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request({
      host: target.isIpLiteral ? target.addresses[0] : target.host,
      port: u.effectivePort,
      path: `${u.url.pathname}${u.url.search}`,
      method: opts.method,
      headers: { "user-agent": USER_AGENT, accept: "*/*", "accept-encoding": "identity", ...opts.headers },
      lookup: pinnedLookup(target.addresses),
      agent: false,
      signal: opts.signal,
      ...(u.scheme === "https"
        ? {
            servername: target.isIpLiteral ? undefined : target.host,
            ca: trustedCas(),
            rejectUnauthorized: opts.verifyTls,
          }
        : {}),
    });
    const connectTimer = setTimeout(
      () =>
        req.destroy(
          Object.assign(new Error(`connection timed out after ${connectTimeoutMs()} ms`), { code: "ETIMEDOUT" }),
        ),
      connectTimeoutMs(),
    );
    let socketRef: Socket | null = null;
    req.once("socket", (s: Socket) => {
      socketRef = s;
      s.once("connect", () => {
        tConnect = performance.now();
        clearTimeout(connectTimer);
      });
      s.once("secureConnect", () => (tSecure = performance.now()));
    });
    req.once("error", (err) => {
      clearTimeout(connectTimer);
      reject(err);
    });
    req.once("response", (res) => {
      clearTimeout(connectTimer);
      const tFirst = performance.now();
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const sock = socketRef as TLSSocket | null;
      const tlsInfo: TlsInfo | null =
        u.scheme === "https" && sock
          ? {
              authorized: sock.authorized === true,
              error: sock.authorizationError ? String(sock.authorizationError) : null,
              protocol: sock.getProtocol?.() ?? null,
              cipher: sock.getCipher?.()?.name ?? null,
            }
          : null;
      const address = sock?.remoteAddress ?? null;
      const finish = () => {
        const end = performance.now();
        resolve({
          status: res.statusCode ?? 0,
          headers: flattenHeaders(res.headers),
          body: Buffer.concat(chunks),
          truncated,
          address,
          tls: tlsInfo,
          timing: {
            dnsMs: 0,
            connectMs: tConnect === null ? null : round(tConnect - t0),
            tlsMs: tSecure === null || tConnect === null ? null : round(tSecure - tConnect),
            ttfbMs: round(tFirst - t0),
            totalMs: round(end - t0),
          },
        });
      };
      res.on("data", (c: Buffer) => {
        if (truncated) return;
        if (size + c.length > opts.maxBytes) {
          chunks.push(c.subarray(0, opts.maxBytes - size));
          size = opts.maxBytes;
          truncated = true;
          res.destroy();
          finish();
          return;
        }
        chunks.push(c);
        size += c.length;
      });
      res.once("end", () => !truncated && finish());
      res.once("error", (err) => !truncated && reject(err));
      res.once(
        "aborted",
        () => !truncated && reject(Object.assign(new Error("response aborted"), { code: "ECONNRESET" })),
      );
    });
    req.end(opts.body);
  });
}
