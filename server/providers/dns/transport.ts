// One DNS message exchange with one server, over UDP or TCP. Each UDP query uses its own socket, so the source
// port is random per query (RFC 5452), and only a reply from the queried server with our id is accepted.
import dgram from "node:dgram";
import net from "node:net";
import * as packet from "dns-packet";
import type { DecodedPacket } from "dns-packet";
import type { DnsServer } from "./config";

/**
 * Timers run before I/O callbacks in each turn of the event loop, so after a stall (a large feed parsed on first
 * use, say) a timeout would fire although the answer is already waiting in the socket. setImmediate runs after the
 * I/O phase: an answer that arrived in time wins.
 */
function afterPendingIo(fn: () => void): void {
  setImmediate(fn);
}

export type Exchange =
  { ok: true; response: DecodedPacket } | { ok: false; reason: "timeout" | "network"; detail: string };

function matches(res: DecodedPacket, id: number, name: string, type: string): boolean {
  const q = res.questions?.[0];
  return (
    res.id === id && res.type === "response" && !!q && q.name.toLowerCase() === name.toLowerCase() && q.type === type
  );
}

export function udpExchange(
  server: DnsServer,
  query: Buffer,
  id: number,
  name: string,
  type: string,
  timeoutMs: number,
): Promise<Exchange> {
  return new Promise((resolve) => {
    const sock = dgram.createSocket(net.isIPv6(server.host) ? "udp6" : "udp4");
    let settled = false;
    const finish = (result: Exchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.close();
      resolve(result);
    };
    const timer = setTimeout(
      () => afterPendingIo(() => finish({ ok: false, reason: "timeout", detail: `no answer within ${timeoutMs} ms` })),
      timeoutMs,
    );
    sock.on("error", (err) => finish({ ok: false, reason: "network", detail: err.message }));
    sock.on("message", (msg, rinfo) => {
      if (rinfo.address !== server.host || rinfo.port !== server.port) return;
      let res: DecodedPacket;
      try {
        res = packet.decode(msg);
      } catch {
        return; // a malformed datagram is ignored like a spoofed one; the timeout decides
      }
      if (matches(res, id, name, type)) finish({ ok: true, response: res });
    });
    // connect() makes the kernel report ICMP port-unreachable as an error instead of a silent timeout.
    sock.connect(server.port, server.host, () => {
      sock.send(query, (err) => {
        if (err) finish({ ok: false, reason: "network", detail: err.message });
      });
    });
  });
}

export function tcpExchange(
  server: DnsServer,
  query: Buffer,
  id: number,
  name: string,
  type: string,
  timeoutMs: number,
): Promise<Exchange> {
  return new Promise((resolve) => {
    const sock = net.connect({ host: server.host, port: server.port });
    let settled = false;
    let buf = Buffer.alloc(0);
    const finish = (result: Exchange) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        afterPendingIo(() => finish({ ok: false, reason: "timeout", detail: `no TCP answer within ${timeoutMs} ms` })),
      timeoutMs,
    );
    sock.on("error", (err) => finish({ ok: false, reason: "network", detail: err.message }));
    sock.on("close", () => finish({ ok: false, reason: "network", detail: "connection closed before an answer" }));
    sock.on("connect", () => {
      const framed = Buffer.alloc(2 + query.length);
      framed.writeUInt16BE(query.length, 0);
      query.copy(framed, 2);
      sock.write(framed);
    });
    sock.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 2) return;
      const len = buf.readUInt16BE(0);
      if (buf.length < 2 + len) return;
      try {
        const res = packet.decode(buf.subarray(2, 2 + len));
        if (matches(res, id, name, type)) finish({ ok: true, response: res });
        else finish({ ok: false, reason: "network", detail: "mismatched TCP answer" });
      } catch (err) {
        finish({ ok: false, reason: "network", detail: `malformed TCP answer: ${(err as Error).message}` });
      }
    });
  });
}
