// /cidr/check: the sampled addresses of an IPv4 range, each with its reputation (shipped data) and blocklist results.
import { blocklistSources, checkTarget } from "../blocklists/check";
import { dnsblServers, dnsblTimeoutMs } from "../blocklists/config";
import { parseTarget, type Target } from "../blocklists/targets";
import { AppError } from "../errors";
import { getIpReputation } from "../ip/reputation";
import { parseIpv4Cidr, sampleAddresses, EVERY_ADDRESS_FROM_PREFIX, SAMPLES_FOR_WIDE_RANGES } from "./range";
import type { CidrCheckResult } from "./schemas";

export async function checkCidrOrThrow(input: string): Promise<CidrCheckResult> {
  const range = parseIpv4Cidr(input);
  if ("error" in range) throw new AppError("INVALID_REQUEST", range.error);
  const env = { servers: dnsblServers(), timeoutMs: dnsblTimeoutMs() };
  const ips = sampleAddresses(range);
  // Reputation first: its first call in a process loads the routing tables synchronously, which must not stall the
  // blocklist queries' timers. After that it answers from memory.
  const first = await getIpReputation(ips[0]);
  const reputations = [first, ...(await Promise.all(ips.slice(1).map((ip) => getIpReputation(ip))))];
  const blocklists = await Promise.all(ips.map((ip) => checkTarget(parseTarget(ip) as Target, env)));
  const addresses = ips.map((ip, i) => ({ ip, reputation: reputations[i], blocklists: blocklists[i] }));
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
