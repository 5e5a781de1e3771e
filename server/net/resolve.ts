// Resolution of a target host name to all its addresses, once, so that the addresses we vet are the addresses we
// connect to. Two resolvers: the system one (node:dns lookup, what the host itself would use) and the service's own
// DNS client (SERVICE_DNS_SERVERS), chosen by SERVICE_TARGET_RESOLVER or per call.
import { lookup } from "node:dns/promises";
import { queryDns } from "../providers/dns";
import { parseIpStrict } from "./ip-parse";
import { resolveTimeoutMs, targetResolverKind } from "./config";

export type Resolution =
  | { ok: true; addresses: string[]; resolver: string; durationMs: number }
  | { ok: false; reason: string; notFound: boolean; resolver: string; durationMs: number };

/** A function that resolves a host name; tests and callers with their own view of DNS can pass one. */
export type TargetResolver = (host: string) => Promise<Resolution>;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`DNS resolution timed out after ${ms} ms`), { code: "ETIMEOUT" })),
      ms,
    );
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** IPv4 first: a host without IPv6 connectivity must not fail on a name that has both. Duplicates removed. */
function orderAddresses(list: string[]): string[] {
  const canon = [...new Set(list.map((a) => parseIpStrict(a)?.address).filter((a): a is string => !!a))];
  return [...canon.filter((a) => !a.includes(":")), ...canon.filter((a) => a.includes(":"))];
}

export const systemResolver: TargetResolver = async (host) => {
  const t0 = Date.now();
  try {
    const res = await withTimeout(lookup(host, { all: true, verbatim: true }), resolveTimeoutMs());
    const addresses = orderAddresses(res.map((r) => r.address));
    if (addresses.length === 0)
      return {
        ok: false,
        reason: "the name has no IPv4 or IPv6 address",
        notFound: true,
        resolver: "system",
        durationMs: Date.now() - t0,
      };
    return { ok: true, addresses, resolver: "system", durationMs: Date.now() - t0 };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "ERROR";
    const notFound = code === "ENOTFOUND" || code === "ENODATA";
    return {
      ok: false,
      reason: notFound ? "no such name in the DNS" : `the DNS lookup failed (${code})`,
      notFound,
      resolver: "system",
      durationMs: Date.now() - t0,
    };
  }
};

export const configuredResolver: TargetResolver = async (host) => {
  const t0 = Date.now();
  const timeoutMs = resolveTimeoutMs();
  const [a, aaaa] = await Promise.all([queryDns(host, "A", { timeoutMs }), queryDns(host, "AAAA", { timeoutMs })]);
  const label = `dns ${a.server ?? a.servers.join(",")}`;
  const values = [...a.records, ...aaaa.records].filter((r) => r.type === "A" || r.type === "AAAA").map((r) => r.value);
  const addresses = orderAddresses(values);
  if (addresses.length > 0) return { ok: true, addresses, resolver: label, durationMs: Date.now() - t0 };
  const failed = [a, aaaa].find((r) => r.status !== "NOERROR" && r.status !== "NODATA" && r.status !== "NXDOMAIN");
  if (failed)
    return {
      ok: false,
      reason: `the DNS lookup failed (${failed.status})`,
      notFound: false,
      resolver: label,
      durationMs: Date.now() - t0,
    };
  const nx = a.status === "NXDOMAIN";
  return {
    ok: false,
    reason: nx ? "no such name in the DNS" : "the name has no IPv4 or IPv6 address",
    notFound: true,
    resolver: label,
    durationMs: Date.now() - t0,
  };
};

export function defaultResolver(): TargetResolver {
  return targetResolverKind() === "configured" ? configuredResolver : systemResolver;
}
