// IP address parsing and canonical formatting. Two doors on purpose: API input accepts only the unambiguous spellings
// (strict), while the SSRF guard must understand every spelling a URL parser or inet_aton would turn into an address
// (loose), or "0x7f.1" would slip past a check that only knows dotted quads.

export type IpVersion = 4 | 6;
export type ParsedIp = { version: IpVersion; address: string };

const STRICT_V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/** Dotted quad to an unsigned 32-bit integer, or -1. Strict: four decimal parts, no leading zeros. */
export function ipv4ToInt(s: string): number {
  if (!STRICT_V4.test(s)) return -1;
  const p = s.split(".");
  return ((+p[0]! << 24) | (+p[1]! << 16) | (+p[2]! << 8) | +p[3]!) >>> 0;
}

export function intToIpv4(n: number): string {
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/**
 * Any RFC 4291 text form (including an embedded dotted quad in the last 32 bits) to eight 16-bit groups, or null.
 * No brackets, no zone identifier: a zone only makes sense for link-local targets, which are refused anyway.
 */
export function ipv6ToGroups(s: string): number[] | null {
  if (s.length < 2 || s.length > 45 || s.indexOf(":") < 0) return null;
  let tail: number[] = [];
  let text = s;
  const lastColon = s.lastIndexOf(":");
  if (s.indexOf(".", lastColon) > 0) {
    const v4 = ipv4ToInt(s.slice(lastColon + 1));
    if (v4 < 0) return null;
    tail = [v4 >>> 16, v4 & 0xffff];
    text = s.slice(0, lastColon + 1) + "0"; // placeholder group, replaced below
  }
  const dbl = text.indexOf("::");
  if (dbl >= 0 && text.indexOf("::", dbl + 1) >= 0) return null;
  const parseSide = (side: string): number[] | null => {
    if (side === "") return [];
    const out: number[] = [];
    for (const g of side.split(":")) {
      if (!HEX_GROUP.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const want = tail.length ? 7 : 8; // the placeholder counts as one group
  let groups: number[];
  if (dbl >= 0) {
    const head = parseSide(text.slice(0, dbl));
    const rest = parseSide(text.slice(dbl + 2));
    if (!head || !rest || head.length + rest.length >= want) return null;
    groups = [...head, ...new Array<number>(want - head.length - rest.length).fill(0), ...rest];
  } else {
    const all = parseSide(text);
    if (!all || all.length !== want) return null;
    groups = all;
  }
  if (tail.length) groups = [...groups.slice(0, 6), ...tail];
  return groups.length === 8 ? groups : null;
}

/**
 * An address as the card-testing counters key it: an IPv4 address itself, an IPv6 address its /64
 * ("2001:db8:1:2::/64"). One IPv6 subscriber or host is routinely given a whole /64 and may use any address in it, so
 * a tester rotating inside it is one sender. Give it the canonical address (parseIpStrict: an IPv4-mapped IPv6 address
 * is already its IPv4 address, keyed as IPv4).
 */
export function addressCounterKey(address: string): string {
  const g = address.includes(":") ? ipv6ToGroups(address) : null;
  return g ? `${formatIpv6([g[0]!, g[1]!, g[2]!, g[3]!, 0, 0, 0, 0])}/64` : address;
}

/** RFC 5952: lowercase, no leading zeros, the longest (first on a tie) run of two or more zero groups as "::";
 *  IPv4-mapped addresses in mixed notation (section 5). */
export function formatIpv6(g: readonly number[]): string {
  if (g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff) {
    return `::ffff:${intToIpv4(((g[6]! << 16) | g[7]!) >>> 0)}`;
  }
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (a: number, b: number) =>
    g
      .slice(a, b)
      .map((x) => x.toString(16))
      .join(":");
  if (bestStart < 0) return hex(0, 8);
  return `${hex(0, bestStart)}::${hex(bestStart + bestLen, 8)}`;
}

/**
 * API input validation: a dotted quad with decimal parts and no leading zeros, or any RFC 4291 IPv6 text.
 * Returns the canonical form (IPv6 per RFC 5952), or null for anything else (no brackets, zones, or
 * decimal/octal/hex IPv4 spellings, which are ambiguous between parsers).
 */
export function parseIpStrict(s: string): ParsedIp | null {
  if (typeof s !== "string") return null;
  if (s.indexOf(":") < 0) return STRICT_V4.test(s) ? { version: 4, address: s } : null;
  const g = ipv6ToGroups(s);
  return g ? { version: 6, address: formatIpv6(g) } : null;
}

/**
 * One part of a loose IPv4 spelling, as the WHATWG URL host parser and inet_aton read it:
 * "0x"/"0X" prefix is hex (empty hex is 0), a leading "0" is octal, otherwise decimal. -1 if not numeric.
 */
function looseV4Part(p: string): number {
  if (p === "") return -1;
  let radix = 10;
  let digits = p;
  if (p.length >= 2 && p[0] === "0" && (p[1] === "x" || p[1] === "X")) {
    radix = 16;
    digits = p.slice(2);
    if (digits === "") return 0;
  } else if (p.length > 1 && p[0] === "0") {
    radix = 8;
    digits = p.slice(1);
  }
  const re = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!re.test(digits)) return -1;
  const n = parseInt(digits, radix);
  return Number.isSafeInteger(n) ? n : -1;
}

/** "2130706433", "0x7f.1", "017700000001", "127.1" and friends to an unsigned 32-bit integer, or -1. */
export function looseIpv4ToInt(s: string): number {
  const parts = s.split(".");
  if (parts.length > 1 && parts[parts.length - 1] === "") parts.pop(); // WHATWG allows one trailing dot
  if (parts.length < 1 || parts.length > 4) return -1;
  const nums = parts.map(looseV4Part);
  if (nums.some((n) => n < 0)) return -1;
  const last = nums[nums.length - 1]!;
  for (let i = 0; i < nums.length - 1; i++) if (nums[i]! > 255) return -1;
  if (last >= 256 ** (5 - nums.length)) return -1;
  let n = last;
  for (let i = 0; i < nums.length - 1; i++) n += nums[i]! * 256 ** (3 - i);
  return n >>> 0;
}

/**
 * Everything a URL parser, inet_aton or a socket would treat as a literal address: loose IPv4 spellings,
 * bracketed or bare IPv6, IPv4-mapped IPv6. Returns the canonical address (dotted quad or RFC 5952), or null
 * when the string is a host name (or not an address at all).
 */
export function parseHostAddressLoose(s: string): string | null {
  if (typeof s !== "string" || s === "") return null;
  let t = s.trim();
  if (t.startsWith("[") && t.endsWith("]")) t = t.slice(1, -1);
  if (t.indexOf(":") >= 0) {
    const pct = t.indexOf("%");
    if (pct >= 0) t = t.slice(0, pct); // a zone id does not change which address is reached
    const g = ipv6ToGroups(t);
    return g ? formatIpv6(g) : null;
  }
  const n = looseIpv4ToInt(t);
  return n < 0 ? null : intToIpv4(n);
}

// CIDR ranges: the one parser for feeds, rule conditions, CIDR checks and membership tests, so a range is read the
// same way wherever it is saved or evaluated (a rule once saved " 203.0.113.0/24" and then never matched it).

export function ipv6ToBigInt(address: string): bigint | null {
  const g = ipv6ToGroups(address);
  if (!g) return null;
  // Four 32-bit words, not eight 16-bit groups: half the BigInt operations, and this runs for every row of the shipped
  // IPv6 ranges at start (about 206,000 addresses of the ASN table: 0.9 s with eight shifts, 0.3 s with four).
  return (
    (BigInt(((g[0]! << 16) | g[1]!) >>> 0) << 96n) |
    (BigInt(((g[2]! << 16) | g[3]!) >>> 0) << 64n) |
    (BigInt(((g[4]! << 16) | g[5]!) >>> 0) << 32n) |
    BigInt(((g[6]! << 16) | g[7]!) >>> 0)
  );
}

export type ParsedRange =
  | { version: 4; start: number; end: number; prefix: number }
  | { version: 6; start: bigint; end: bigint; prefix: number };

/**
 * "192.0.2.0/24", "2001:db8::/32" or a bare address (a one-address range); surrounding white space is ignored and
 * host bits are cleared; null when malformed. Addresses are strict (dotted quads, RFC 4291 text).
 */
export function parseCidr(text: string): ParsedRange | null {
  const [net, lenText, extra] = text.trim().split("/");
  if (!net || extra !== undefined) return null;
  if (lenText !== undefined && !/^(0|[1-9]\d{0,2})$/.test(lenText)) return null;
  if (net.includes(":")) {
    const base = ipv6ToBigInt(net);
    const len = lenText === undefined ? 128 : Number(lenText);
    if (base === null || len > 128) return null;
    const host = (1n << BigInt(128 - len)) - 1n;
    return { version: 6, start: base & ~host, end: (base & ~host) | host, prefix: len };
  }
  const base = ipv4ToInt(net);
  const len = lenText === undefined ? 32 : Number(lenText);
  if (base < 0 || len > 32) return null;
  const size = 2 ** (32 - len);
  const start = base - (base % size);
  return { version: 4, start, end: start + size - 1, prefix: len };
}

/** The canonical text of a range: network address (host bits cleared) and prefix, e.g. "203.0.113.0/24". */
export function formatCidr(range: ParsedRange): string {
  if (range.version === 4) return `${intToIpv4(range.start)}/${range.prefix}`;
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((range.start >> BigInt(i * 16)) & 0xffffn));
  return `${formatIpv6(groups)}/${range.prefix}`;
}

/** True when the address (strict text, white space ignored) lies in the range. */
export function addressInRange(address: string, range: ParsedRange): boolean {
  const ip = address.includes("/") ? null : parseCidr(address);
  if (!ip || ip.version !== range.version) return false;
  return ip.start >= range.start && ip.end <= range.end;
}

// IPv4-mapped IPv6 addresses (::ffff:a.b.c.d, RFC 4291 2.5.5.2) are how a dual-stack socket reports an IPv4 client:
// the same host as a.b.c.d. Both sides of a list are written in the IPv4 form, the item when it is stored and the
// value a rule tests (in_list, inCidr), so "::ffff:8.8.4.4" listed matches 8.8.4.4 assessed, and "9.9.0.0/16" matches ::ffff:9.9.1.1.

const MAPPED = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/** The IPv4 address a canonical IPv4-mapped address names (formatIpv6 writes it ::ffff:a.b.c.d), else the address. */
export function unmappedAddress(address: string): string {
  return MAPPED.exec(address)?.[1] ?? address;
}

/**
 * An address in the one form the service keeps it in (what `ipAddress` in ./schemas.ts answers): IPv4 as sent,
 * IPv6 in RFC 5952 form, an IPv4-mapped address as its IPv4 address; null when `s` is not an address.
 */
export function canonicalAddress(s: string): string | null {
  const parsed = parseIpStrict(s);
  if (!parsed) return null;
  return parsed.version === 4 ? parsed.address : unmappedAddress(parsed.address);
}

/** A range inside ::ffff:0:0/96 as the IPv4 range it names (::ffff:9.9.0.0/112 is 9.9.0.0/16), else the range. */
export function unmappedRange(range: ParsedRange): ParsedRange {
  if (range.version !== 6 || range.prefix < 96 || range.start >> 32n !== 0xffffn) return range;
  const start = Number(range.start & 0xffffffffn);
  const prefix = range.prefix - 96;
  return { version: 4, start, end: start + 2 ** (32 - prefix) - 1, prefix };
}
