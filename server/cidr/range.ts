// IPv4 CIDR ranges and the addresses a check covers. The spec counts CIDR units as sampled IPv4 addresses: every
// address for /29 to /32, and 7 for wider ranges, so IPv6 ranges (where "every address" of a /125 and a spread
// over a /64 would need their own unit rules) are refused rather than priced by guesswork.
import { formatCidr, intToIpv4, ipv4ToInt, parseCidr, parseIpStrict } from "../net/ip";

export const SAMPLES_FOR_WIDE_RANGES = 7;
export const EVERY_ADDRESS_FROM_PREFIX = 29;

export interface Ipv4Range {
  /** Canonical "network/prefix". */
  cidr: string;
  network: number;
  prefix: number;
  size: number;
  /** True when the input had host bits set ("203.0.113.5/29" is read as 203.0.113.0/29). */
  hostBitsCleared: boolean;
}

export function parseIpv4Cidr(input: string): Ipv4Range | { error: string } {
  const text = input.trim();
  const [addr, len, extra] = text.split("/");
  if (extra !== undefined) return { error: "A CIDR range has one slash: address/prefix, e.g. 203.0.113.0/29." };
  if (parseIpStrict(addr ?? "")?.version === 6)
    return { error: "Only IPv4 ranges are supported: the unit rule samples IPv4 addresses." };
  const ip = ipv4ToInt(addr ?? "");
  if (ip < 0) return { error: `"${(addr ?? "").slice(0, 60)}" is not an IPv4 address in dotted-quad form.` };
  const prefix = len === undefined ? 32 : /^(3[0-2]|[12]?\d)$/.test(len) ? Number(len) : -1;
  if (prefix < 0) return { error: "The prefix length must be an integer from 0 to 32." };
  // The messages above say what is wrong; the range itself comes from the one CIDR parser (rules read it too).
  const range = parseCidr(`${addr}/${prefix}`);
  if (!range || range.version !== 4) return { error: "The prefix length must be an integer from 0 to 32." };
  return {
    cidr: formatCidr(range),
    network: range.start,
    prefix,
    size: 2 ** (32 - prefix),
    hostBitsCleared: range.start !== ip,
  };
}

/** Units of a check, exactly as the spec's Limits: 2^(32-prefix) for /29 to /32, 7 for wider ranges. */
export function cidrUnits(prefix: number): number {
  return prefix >= EVERY_ADDRESS_FROM_PREFIX ? 2 ** (32 - prefix) : SAMPLES_FOR_WIDE_RANGES;
}

/**
 * Every address for /29 to /32 (network and broadcast included). For wider ranges, 7 addresses spread evenly:
 * the first host (network + 1), the last host (broadcast - 1), and the addresses at 1/6, 2/6, 3/6, 4/6 and 5/6
 * of the range, rounded down. The network and broadcast addresses themselves are skipped there, since nothing
 * sends from them.
 */
export function sampleAddresses(range: Ipv4Range): string[] {
  if (range.prefix >= EVERY_ADDRESS_FROM_PREFIX) {
    return Array.from({ length: range.size }, (_, i) => intToIpv4(range.network + i));
  }
  const offsets = [1, ...[1, 2, 3, 4, 5].map((k) => Math.floor((k * range.size) / 6)), range.size - 2];
  return offsets.map((o) => intToIpv4(range.network + o));
}
