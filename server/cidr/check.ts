// /cidr/check: the sampled addresses of an IPv4 range, each with its address scope and blocklist results.
import { blocklistSources, checkTarget } from "../blocklists/check";
import { dnsblServers, dnsblTimeoutMs } from "../blocklists/config";
import { parseTarget, type Target } from "../blocklists/targets";
import { AppError } from "../errors";
import { classifyIp } from "../net/ip";
import { parseIpv4Cidr, sampleAddresses, EVERY_ADDRESS_FROM_PREFIX, SAMPLES_FOR_WIDE_RANGES } from "./range";
import type { CidrCheckResult } from "./schemas";

export async function checkCidrOrThrow(input: string): Promise<CidrCheckResult> {
  const range = parseIpv4Cidr(input);
  if ("error" in range) throw new AppError("INVALID_REQUEST", range.error);
  const env = { servers: dnsblServers(), timeoutMs: dnsblTimeoutMs() };
  const ips = sampleAddresses(range);
  const addresses = await Promise.all(
    ips.map(async (ip) => {
      const c = classifyIp(ip);
      return { ip, scope: c.scope, scopeReason: c.reason, blocklists: await checkTarget(parseTarget(ip) as Target, env) };
    }),
  );
  const every = range.prefix >= EVERY_ADDRESS_FROM_PREFIX;
  const listedAddresses = addresses.filter((a) => a.blocklists.status === "listed").map((a) => a.ip);
  return {
    cidr: range.cidr,
    input: input.trim(),
    hostBitsCleared: range.hostBitsCleared,
    prefixLength: range.prefix,
    totalAddresses: range.size,
    sampling: every ? "every_address" : "spread_sample",
    samplingDescription: every
      ? `Every address of the /${range.prefix}, network and broadcast included.`
      : `${SAMPLES_FOR_WIDE_RANGES} addresses spread across the range: the first and last host addresses and those at 1/6, 2/6, 3/6, 4/6 and 5/6 of it.`,
    units: ips.length,
    addresses,
    summary: {
      checked: addresses.length,
      listed: listedAddresses.length,
      incomplete: addresses.filter((a) => a.blocklists.status === "incomplete").length,
      listedAddresses,
    },
    sources: blocklistSources(env.servers),
    checkedAt: new Date().toISOString(),
  };
}
