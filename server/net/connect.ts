// Connections that can only reach vetted addresses: node's `lookup` hook is replaced by one that answers with the
// addresses the SSRF guard already checked, so there is no second resolution (no DNS-rebinding window), while the
// TLS SNI and HTTP Host header keep the host name the user asked for.
import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import tls from "node:tls";
import { connectTimeoutMs, trustedCas } from "./config";
import type { VettedTarget } from "./ssrf";

export function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const list: LookupAddress[] = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  return ((_hostname: string, options: unknown, callback?: unknown) => {
    const cb = (typeof options === "function" ? options : callback) as (...args: unknown[]) => void;
    const opts = (typeof options === "object" && options) || {};
    const family = (opts as { family?: number | string }).family;
    const wanted = family === 4 || family === "IPv4" ? 4 : family === 6 || family === "IPv6" ? 6 : 0;
    const usable = wanted ? list.filter((a) => a.family === wanted) : list;
    if (usable.length === 0) {
      process.nextTick(() =>
        cb(Object.assign(new Error("no vetted address of the requested family"), { code: "ENOTFOUND" })),
      );
      return;
    }
    if ((opts as { all?: boolean }).all) process.nextTick(() => cb(null, usable));
    else process.nextTick(() => cb(null, usable[0]!.address, usable[0]!.family));
  }) as LookupFunction;
}

export type TlsConnection = {
  socket: tls.TLSSocket;
  address: string;
  connectMs: number;
  tlsMs: number;
};

export type TlsConnectOptions = { timeoutMs?: number; alpn?: string[] };

/**
 * Opens a TLS connection to a vetted target without rejecting bad certificates: the caller reports on the chain
 * (socket.authorized is chain validity only; the name check is left to the caller, so both reasons can be told).
 */
export function connectTlsToVetted(
  target: VettedTarget,
  port: number,
  opts: TlsConnectOptions = {},
): Promise<TlsConnection> {
  const timeoutMs = opts.timeoutMs ?? connectTimeoutMs();
  const t0 = performance.now();
  let tConnect = t0;
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: target.isIpLiteral ? target.addresses[0] : target.host,
      port,
      lookup: pinnedLookup(target.addresses),
      // SNI must be a host name: an IP literal is not sent (RFC 6066 section 3).
      servername: target.isIpLiteral ? undefined : target.host,
      ca: trustedCas(),
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
      ALPNProtocols: opts.alpn,
    });
    const timer = setTimeout(
      () =>
        socket.destroy(
          Object.assign(new Error(`TLS connection timed out after ${timeoutMs} ms`), { code: "ETIMEDOUT" }),
        ),
      timeoutMs,
    );
    socket.once("connect", () => (tConnect = performance.now()));
    socket.once("secureConnect", () => {
      clearTimeout(timer);
      const now = performance.now();
      resolve({
        socket,
        address: socket.remoteAddress ?? target.addresses[0]!,
        connectMs: tConnect - t0,
        tlsMs: now - tConnect,
      });
    });
    socket.once("error", (err) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    });
  });
}
