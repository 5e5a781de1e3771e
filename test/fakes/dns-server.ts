// A real DNS server on 127.0.0.1 (UDP and TCP on the same random port) that plays recursive resolvers and DNSBL
// zones in tests. Configure it with a zone map; point SERVICE_DNS_SERVERS at `server.address` ("127.0.0.1:PORT").
//
//   const dns = await startFakeDnsServer({
//     records: {
//       "example.com": [{ type: "A", data: "93.184.216.34", ttl: 300 }, { type: "MX", data: { preference: 10, exchange: "mx.example.com" } }],
//       "www.example.com": [{ type: "CNAME", data: "example.com" }],
//       "2.0.0.127.zen.spamhaus.org": [{ type: "A", data: "127.0.0.2" }],
//     },
//   });
//   process.env.SERVICE_DNS_SERVERS = dns.address;
//   dns.setFailure("broken.example", "SERVFAIL");   // or "REFUSED", "timeout" (no answer at all)
//   dns.down = true;  dns.delayMs = 500;  dns.truncateUdp = true;
//   await dns.close();
//
// Semantics, as a recursive resolver answers:
// - a name with records of the asked type: NOERROR with those answers (TTLs as given, default 300);
// - a name with a CNAME and another type asked: the CNAME chain is followed inside the zone map;
// - a name that exists (has records, or is a parent of a name that has) but not of that type: NODATA
//   (NOERROR, no answers, an SOA in the authority section);
// - any other name: NXDOMAIN with an SOA in the authority section.
import dgram from "node:dgram";
import net from "node:net";
import * as packet from "dns-packet";
import type { Answer, DecodedPacket, Question, RecordType } from "dns-packet";

export type FakeRecord = { type: RecordType; data: unknown; ttl?: number };
export type FakeFailure = "SERVFAIL" | "REFUSED" | "NXDOMAIN" | "timeout";
export type FakeHandler = (name: string, type: RecordType) => FakeRecord[] | FakeFailure | undefined;

export interface FakeDnsOptions {
  records?: Record<string, FakeRecord[]>;
  /** Consulted before the zone map; return undefined to fall through. */
  handler?: FakeHandler;
}

export interface LoggedQuery {
  name: string;
  type: string;
  transport: "udp" | "tcp";
}

export interface FakeDnsServer {
  /** "127.0.0.1:PORT", the form SERVICE_DNS_SERVERS takes. */
  address: string;
  host: string;
  port: number;
  /** Every query received, in order (also those answered with a failure or dropped). */
  queries: LoggedQuery[];
  /** When true, every query is silently dropped (a resolver that is down or filtered). */
  down: boolean;
  /** Milliseconds to wait before each answer (a slow resolver). */
  delayMs: number;
  /** When true, every UDP answer with records is sent truncated (TC bit, no answers) to force TCP fallback. */
  truncateUdp: boolean;
  /** Zones whose answers carry the AD bit, as a validating resolver sets it for DNSSEC-signed zones. */
  signedZones: Set<string>;
  setRecords(name: string, records: FakeRecord[]): void;
  removeRecords(name: string): void;
  setFailure(name: string, failure: FakeFailure | null): void;
  close(): Promise<void>;
}

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;
const CLASSIC_UDP_LIMIT = 512;

const norm = (name: string) => name.toLowerCase().replace(/\.$/, "");

export async function startFakeDnsServer(opts: FakeDnsOptions = {}): Promise<FakeDnsServer> {
  const zone = new Map<string, FakeRecord[]>();
  for (const [name, recs] of Object.entries(opts.records ?? {})) zone.set(norm(name), recs);
  const failures = new Map<string, FakeFailure>();
  const sockets = new Set<net.Socket>();

  // The returned object is the live state: tests flip `down`, `delayMs` and `truncateUdp` on it directly.
  const state: FakeDnsServer = {
    address: "",
    host: "127.0.0.1",
    port: 0,
    queries: [],
    down: false,
    delayMs: 0,
    truncateUdp: false,
    signedZones: new Set(),
    setRecords: (name, records) => void zone.set(norm(name), records),
    removeRecords: (name) => void zone.delete(norm(name)),
    setFailure: (name, failure) => void (failure ? failures.set(norm(name), failure) : failures.delete(norm(name))),
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([
        new Promise<void>((r) => udp.close(() => r())),
        new Promise<void>((r) => tcp.close(() => r())),
      ]);
    },
  };

  function nameExists(name: string): boolean {
    if (zone.has(name)) return true;
    for (const key of zone.keys()) if (key.endsWith("." + name)) return true;
    return false;
  }

  function soaFor(name: string): Answer {
    const labels = name.split(".");
    const apex = labels.slice(-2).join(".") || ".";
    return {
      type: "SOA",
      name: apex,
      ttl: 60,
      data: {
        mname: `ns1.${apex}`,
        rname: `hostmaster.${apex}`,
        serial: 1,
        refresh: 3600,
        retry: 600,
        expire: 86400,
        minimum: 60,
      },
    };
  }

  function toAnswer(name: string, r: FakeRecord): Answer {
    return { type: r.type, name, ttl: r.ttl ?? 300, class: "IN", data: r.data } as Answer;
  }

  function lookup(name: string, type: RecordType): FakeRecord[] | FakeFailure | undefined {
    return failures.get(name) ?? opts.handler?.(name, type) ?? zone.get(name);
  }

  /** Returns the response packet for one question, or null to drop it. */
  function answer(q: Question, id: number): packet.Packet | null {
    const name = norm(q.name);
    const base = { id, type: "response" as const, questions: [q] };
    const signed = [...state.signedZones].some((z) => name === norm(z) || name.endsWith("." + norm(z)));
    const flags = packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (signed ? packet.AUTHENTIC_DATA : 0);
    const answers: Answer[] = [];
    let current = name;
    let existed = false;
    for (let hops = 0; hops < 10; hops++) {
      const found = lookup(current, q.type);
      if (found === "timeout") return null;
      if (typeof found === "string") {
        if (answers.length > 0) break; // a failing CNAME target: answer with the chain so far
        const auth = found === "NXDOMAIN" ? [soaFor(name)] : [];
        return { ...base, flags: flags | RCODE[found], answers: [], authorities: auth };
      }
      if (found) existed = true;
      const recs = found ?? [];
      const exact = recs.filter((r) => r.type === q.type);
      if (exact.length > 0) {
        answers.push(...exact.map((r) => toAnswer(current, r)));
        break;
      }
      const cname = recs.find((r) => r.type === "CNAME");
      if (!cname || q.type === "CNAME") break;
      answers.push(toAnswer(current, cname));
      current = norm(String(cname.data));
    }
    if (answers.length > 0) return { ...base, flags, answers };
    const rcode = existed || nameExists(name) ? RCODE.NOERROR : RCODE.NXDOMAIN;
    return { ...base, flags: flags | rcode, answers: [], authorities: [soaFor(name)] };
  }

  async function respond(msg: Buffer, transport: "udp" | "tcp"): Promise<{ out: Buffer; udpLimit: number } | null> {
    let query: DecodedPacket;
    try {
      query = packet.decode(msg);
    } catch {
      return null;
    }
    const q = query.questions?.[0];
    if (!q) return null;
    state.queries.push({ name: norm(q.name), type: q.type, transport });
    if (state.down) return null;
    if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs));
    const res = answer(q, query.id ?? 0);
    if (!res) return null;
    const opt = query.additionals?.find((a) => a.type === "OPT") as { udpPayloadSize?: number } | undefined;
    const udpLimit = Math.max(CLASSIC_UDP_LIMIT, opt?.udpPayloadSize ?? CLASSIC_UDP_LIMIT);
    return { out: packet.encode(res), udpLimit };
  }

  function makeUdp(): dgram.Socket {
    const udp = dgram.createSocket("udp4");
    udp.on("message", (msg, rinfo) => {
      void respond(msg, "udp").then((res) => {
        if (!res) return;
        let out = res.out;
        if (state.truncateUdp || out.length > res.udpLimit) {
          // Real servers set TC and send what fits; sending no records makes clients that ignore TC fail loudly.
          const decoded = packet.decode(out);
          out = packet.encode({
            ...decoded,
            flags: (decoded.flags ?? 0) | packet.TRUNCATED_RESPONSE,
            answers: [],
            authorities: [],
            additionals: [],
          });
        }
        udp.send(out, rinfo.port, rinfo.address);
      });
    });
    return udp;
  }

  const tcp = net.createServer((sock) => {
    sockets.add(sock);
    sock.on("close", () => sockets.delete(sock));
    sock.on("error", () => undefined);
    let buf = Buffer.alloc(0);
    sock.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 2) {
        const len = buf.readUInt16BE(0);
        if (buf.length < 2 + len) break;
        const msg = buf.subarray(2, 2 + len);
        buf = buf.subarray(2 + len);
        void respond(Buffer.from(msg), "tcp").then((res) => {
          if (!res || sock.destroyed) return;
          const framed = Buffer.alloc(2 + res.out.length);
          framed.writeUInt16BE(res.out.length, 0);
          res.out.copy(framed, 2);
          sock.write(framed);
        });
      }
    });
  });

  const { udp, port } = await bindBoth(makeUdp, tcp);

  state.port = port;
  state.address = `127.0.0.1:${port}`;
  return state;
}

/** Binds UDP on a random port, then TCP on the same port; retries when TCP finds the port taken. */
async function bindBoth(makeUdp: () => dgram.Socket, tcp: net.Server): Promise<{ udp: dgram.Socket; port: number }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const udp = makeUdp();
    await new Promise<void>((resolve, reject) => {
      udp.once("error", reject);
      udp.bind(0, "127.0.0.1", () => {
        udp.off("error", reject);
        resolve();
      });
    });
    const port = udp.address().port;
    const ok = await new Promise<boolean>((resolve) => {
      const onError = () => resolve(false);
      tcp.once("error", onError);
      tcp.listen(port, "127.0.0.1", () => {
        tcp.off("error", onError);
        resolve(true);
      });
    });
    if (ok) return { udp, port };
    await new Promise<void>((r) => udp.close(() => r()));
  }
  throw new Error("fake DNS server: could not bind UDP and TCP on one port");
}
