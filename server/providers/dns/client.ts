// A stub resolver: asks the configured recursive resolvers over UDP (EDNS0, 1232-byte payload) and retries over
// TCP when an answer comes back truncated. A server that fails (SERVFAIL, REFUSED, timeout, network error) is
// followed by the next one; NOERROR, NODATA and NXDOMAIN are final answers.
import { randomInt } from "node:crypto";
import * as packet from "dns-packet";
import type { Answer, DecodedPacket } from "dns-packet";
import { upstreamTimeoutMs } from "../../env";
import { getDnsServers, getDnsTimeoutMs, type DnsServer } from "./config";
import { toDnsRecord, toTlsaRecord } from "./records";
import { tcpExchange, udpExchange, type Exchange } from "./transport";
import type { DnsAttempt, DnsQueryResult, DnsQueryType, DnsRecordType, DnsStatus, TlsaRecord } from "./types";

export interface DnsQueryOptions {
  /** Overrides SERVICE_DNS_TIMEOUT_MS for this query (per server). */
  timeoutMs?: number;
  /** Overrides SERVICE_UPSTREAM_TIMEOUT_MS: the longest the query waits over all its servers and retries. */
  budgetMs?: number;
  /** Overrides SERVICE_DNS_SERVERS for this query. */
  servers?: DnsServer[];
  /** Sets the AD bit in the query (RFC 6840 5.7), so a validating resolver reports whether it validated the answer. */
  askAuthenticated?: boolean;
}

const EDNS_PAYLOAD = 1232; // the DNS Flag Day 2020 size: avoids IP fragmentation

export function queryDns(name: string, type: DnsRecordType, opts: DnsQueryOptions = {}): Promise<DnsQueryResult> {
  return resolve(name, type, toDnsRecord, opts);
}

/** TLSA records (DANE), kept off the public record types; asks for the AD bit so validation can be reported. */
export function queryTlsa(name: string, opts: DnsQueryOptions = {}): Promise<DnsQueryResult<"TLSA", TlsaRecord>> {
  return resolve(name, "TLSA", toTlsaRecord, { askAuthenticated: true, ...opts });
}

type ToRecord<R> = (a: Answer) => R | null;

async function resolve<T extends DnsQueryType, R extends { type: string }>(
  name: string,
  type: T,
  toRecord: ToRecord<R>,
  opts: DnsQueryOptions,
): Promise<DnsQueryResult<T, R>> {
  const started = Date.now();
  let servers: DnsServer[];
  try {
    servers = opts.servers ?? getDnsServers();
  } catch (err) {
    // A configuration without a usable resolver is an unavailable upstream for the caller, not a crash.
    const attempt: DnsAttempt = {
      server: "(none)",
      transport: "udp",
      outcome: "ERROR",
      detail: (err as Error).message,
      durationMs: 0,
    };
    return failed<T, R>(name.replace(/\.$/, "").toLowerCase(), type, [], [attempt], false, started);
  }
  const perServerMs = opts.timeoutMs ?? getDnsTimeoutMs();
  // One lookup never waits longer than the upstream budget, however many servers time out in turn (issue 22,
  // item 19): a server is tried only with the time left, and not at all when none is.
  const budgetMs = opts.budgetMs ?? upstreamTimeoutMs();
  const timeLeft = () => budgetMs - (Date.now() - started);
  const qname = name.replace(/\.$/, "").toLowerCase();
  const attempts: DnsAttempt[] = [];
  let truncated = false;

  for (const server of servers) {
    if (timeLeft() <= 0) break;
    const id = randomInt(0, 65536);
    let query: Buffer;
    try {
      query = packet.encode({
        type: "query",
        id,
        flags: packet.RECURSION_DESIRED | (opts.askAuthenticated ? packet.AUTHENTIC_DATA : 0),
        questions: [{ type, name: qname, class: "IN" }],
        additionals: [
          {
            type: "OPT",
            name: ".",
            udpPayloadSize: EDNS_PAYLOAD,
            extendedRcode: 0,
            ednsVersion: 0,
            flags: 0,
            flag_do: false,
            options: [],
          },
        ],
      });
    } catch (err) {
      attempts.push({
        server: server.label,
        transport: "udp",
        outcome: "ERROR",
        detail: `cannot encode query: ${(err as Error).message}`,
        durationMs: 0,
      });
      break;
    }
    let t0 = Date.now();
    // A server given all the time that was left and timing out spends the budget, whatever the clock says after:
    // a timer can fire a few milliseconds before Date.now() has moved on by its delay (its start is the event
    // loop's time, taken earlier), which left a sliver for another server.
    let left = timeLeft();
    let ex: Exchange = await udpExchange(server, query, id, qname, type, Math.min(perServerMs, left));
    if (ex.ok && ex.response.flag_tc) {
      truncated = true;
      attempts.push({
        server: server.label,
        transport: "udp",
        outcome: "NOERROR",
        detail: "truncated; retrying over TCP",
        durationMs: Date.now() - t0,
      });
      t0 = Date.now();
      left = timeLeft();
      if (left <= 0) break;
      ex = await tcpExchange(server, query, id, qname, type, Math.min(perServerMs, left));
      const transport = "tcp" as const;
      const result = settle(ex, server, transport, t0, attempts);
      if (result) return finish(result, qname, type, toRecord, server, servers, truncated, attempts, started);
      if (budgetSpent(ex, left, perServerMs)) break;
      continue;
    }
    const result = settle(ex, server, "udp", t0, attempts);
    if (result) return finish(result, qname, type, toRecord, server, servers, truncated, attempts, started);
    if (budgetSpent(ex, left, perServerMs)) break;
  }

  return failed<T, R>(qname, type, servers, attempts, truncated, started);
}

/** Whether an exchange that timed out had been given the whole of the budget's remainder (see resolve's loop). */
function budgetSpent(ex: Exchange, left: number, perServerMs: number): boolean {
  return !ex.ok && ex.reason === "timeout" && left <= perServerMs;
}

function failed<T extends DnsQueryType, R>(
  name: string,
  type: T,
  servers: DnsServer[],
  attempts: DnsAttempt[],
  truncated: boolean,
  started: number,
): DnsQueryResult<T, R> {
  const last = attempts[attempts.length - 1];
  return {
    name,
    type,
    status: last?.outcome ?? "ERROR",
    records: [],
    negativeSoa: null,
    server: null,
    servers: servers.map((s) => s.label),
    authenticated: false,
    truncatedRetriedOverTcp: truncated,
    attempts,
    durationMs: Date.now() - started,
    checkedAt: new Date().toISOString(),
  };
}

/** Records the attempt; returns the response when it is final, null when the next server should be tried. */
function settle(
  ex: Exchange,
  server: DnsServer,
  transport: "udp" | "tcp",
  t0: number,
  attempts: DnsAttempt[],
): DecodedPacket | null {
  const durationMs = Date.now() - t0;
  if (!ex.ok) {
    attempts.push({
      server: server.label,
      transport,
      outcome: ex.reason === "timeout" ? "TIMEOUT" : "ERROR",
      detail: ex.detail,
      durationMs,
    });
    return null;
  }
  const rcode = (ex.response as DecodedPacket & { rcode?: string }).rcode ?? "NOERROR";
  const outcome: DnsStatus =
    rcode === "NOERROR" || rcode === "NXDOMAIN" ? rcode : rcode === "SERVFAIL" || rcode === "REFUSED" ? rcode : "ERROR";
  attempts.push({
    server: server.label,
    transport,
    outcome,
    detail: outcome === "ERROR" ? `response code ${rcode}` : null,
    durationMs,
  });
  return outcome === "NOERROR" || outcome === "NXDOMAIN" ? ex.response : null;
}

function finish<T extends DnsQueryType, R extends { type: string }>(
  res: DecodedPacket,
  name: string,
  type: T,
  toRecord: ToRecord<R>,
  server: DnsServer,
  servers: DnsServer[],
  truncated: boolean,
  attempts: DnsAttempt[],
  started: number,
): DnsQueryResult<T, R> {
  const records = (res.answers ?? []).map(toRecord).filter((r): r is R => r !== null);
  const rcode = (res as DecodedPacket & { rcode?: string }).rcode;
  const hasAsked = records.some((r) => r.type === type);
  const status: DnsStatus = rcode === "NXDOMAIN" ? "NXDOMAIN" : hasAsked ? "NOERROR" : "NODATA";
  const soa = (res.authorities ?? []).find((a) => a.type === "SOA");
  const last = attempts[attempts.length - 1];
  if (last) last.outcome = status;
  return {
    name,
    type,
    status,
    records,
    negativeSoa: status !== "NOERROR" && soa ? toDnsRecord(soa) : null,
    server: server.label,
    servers: servers.map((s) => s.label),
    authenticated: res.flag_ad,
    truncatedRetriedOverTcp: truncated,
    attempts,
    durationMs: Date.now() - started,
    checkedAt: new Date().toISOString(),
  };
}
