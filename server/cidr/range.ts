// IPv4 CIDR ranges and the addresses a check covers. The spec counts CIDR units as sampled IPv4 addresses: every
// address for /29 to /32, and 7 for wider ranges, so IPv6 ranges (where "every address" of a /125 and a spread
// over a /64 would need their own unit rules) are refused rather than priced by guesswork. A range written in
// IPv4-mapped IPv6 (::ffff:8.8.8.0/120, as a dual-stack host writes an IPv4 network) is the IPv4 range it names.
import { formatCidr, intToIpv4, ipv4ToInt, parseCidr, parseIpStrict } from "../net/ip";
import { unmappedAddress, unmappedRange, type ParsedRange } from "../net/ip-parse";

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
  const v6 = parseIpStrict(addr ?? "");
  if (v6?.version === 6) return parseMappedCidr(v6.address, len);
  const ip = ipv4ToInt(addr ?? "");
  if (ip < 0) return { error: `"${(addr ?? "").slice(0, 60)}" is not an IPv4 address in dotted-quad form.` };
  const prefix = len === undefined ? 32 : /^(3[0-2]|[12]?\d)$/.test(len) ? Number(len) : -1;
  if (prefix < 0) return { error: "The prefix length must be an integer from 0 to 32." };
  // The messages above say what is wrong; the range itself comes from the one CIDR parser (rules read it too).
  const range = parseCidr(`${addr}/${prefix}`);
  if (!range || range.version !== 4) return { error: "The prefix length must be an integer from 0 to 32." };
  return ipv4Range(range, ip);
}

// A mapped range is read by the same rule that reads one in a list or a rule condition (unmappedRange), so
// ::ffff:8.8.8.0/120 is 8.8.8.0/24 here as it is there. Below /96 the range is no longer inside ::ffff:0:0/96: it
// covers IPv6 addresses too, and is refused rather than cut down to the IPv4 part.
function parseMappedCidr(address: string, len: string | undefined): Ipv4Range | { error: string } {
  const mapped = unmappedAddress(address);
  if (mapped === address) return { error: "Only IPv4 ranges are supported: the unit rule samples IPv4 addresses." };
  const prefix = len === undefined ? 128 : /^(12[0-8]|1[01]\d|[1-9]?\d)$/.test(len) ? Number(len) : -1;
  if (prefix < 0) return { error: "The prefix length of an IPv6 range must be an integer from 0 to 128." };
  if (prefix < 96) {
    return {
      error: `An IPv4-mapped range (::ffff:a.b.c.d) needs a prefix from /96 to /128 (/${prefix} reaches beyond the IPv4 addresses); write the IPv4 range itself, e.g. ${mapped}/24.`,
    };
  }
  const range = parseCidr(`${address}/${prefix}`);
  const v4 = range && unmappedRange(range);
  if (!v4 || v4.version !== 4)
    return { error: "Only IPv4 ranges are supported: the unit rule samples IPv4 addresses." };
  return ipv4Range(v4, ipv4ToInt(mapped));
}

function ipv4Range(range: Extract<ParsedRange, { version: 4 }>, ip: number): Ipv4Range {
  return {
    cidr: formatCidr(range),
    network: range.start,
    prefix: range.prefix,
    size: 2 ** (32 - range.prefix),
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
