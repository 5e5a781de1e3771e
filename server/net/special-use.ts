// Names and addresses that can be judged from the request alone: RFC 6761 special-use names (and the later
// .onion, .alt, .home.arpa and ICANN's .internal) never have a public registration or public DNS answer, and a
// private or reserved address never has a public registration. Routes that need a public name or address answer
// these before admission, free (server/api/input-decisions.ts), instead of asking a provider and charging for it.
import { setting } from "../env";
import { isPubliclyRoutable, classifyIp } from "./ip";

/**
 * The special-use suffixes in force: SERVICE_SPECIAL_USE_NAMES (comma-separated, e.g. "invalid,localhost") narrows
 * the default for deployments whose own resolver serves a private `.test` zone; read at call time.
 */
export function specialUseSuffixes(): string[] {
  return setting("SERVICE_SPECIAL_USE_NAMES")
    .map((s) => s.toLowerCase().replace(/^\.+|\.+$/g, ""))
    .filter(Boolean);
}

/** Where each default suffix is reserved; a suffix an operator adds is named without a source. */
const RESERVED_BY: Record<string, string> = {
  invalid: "RFC 6761",
  test: "RFC 6761",
  example: "RFC 6761",
  localhost: "RFC 6761",
  local: "RFC 6762, multicast DNS",
  onion: "RFC 7686, Tor onion services",
  alt: "RFC 9476",
  internal: "ICANN, for private use",
  "home.arpa": "RFC 8375, home networks",
};

/** Why a (lower-case, ASCII) name can have no public registration or answer, or null when it may have one. */
export function specialUseNameReason(name: string): string | null {
  const n = name.toLowerCase().replace(/\.$/, "");
  const suffix = specialUseSuffixes().find((s) => n === s || n.endsWith(`.${s}`));
  if (!suffix) return null;
  const by = RESERVED_BY[suffix];
  return `${n} is under .${suffix}, a special-use name${by ? ` (${by})` : ""} that no public registry serves`;
}

/** Why an address can have no public registration, or null when it is publicly routable. */
export function nonPublicAddressReason(address: string): string | null {
  if (isPubliclyRoutable(address)) return null;
  const c = classifyIp(address);
  return `${address} is ${scopeAddressWords(c.scope)}${c.range ? ` in ${c.range}` : ""}, which no registry holds publicly`;
}

/** "a private address", "an unspecified address": an address scope in words, with its article. */
export function scopeAddressWords(scope: string): string {
  const kind = scope.replace(/_/g, "-");
  // "an unspecified address", "an ipv4-mapped address"; every other scope's word begins with a consonant sound.
  return `${/^(unspecified|ipv4)/.test(kind) ? "an" : "a"} ${kind} address`;
}

/**
 * Why a reverse-lookup name (`1.0.0.10.in-addr.arpa`, a zone such as `168.192.in-addr.arpa` or `d.f.ip6.arpa`) is
 * about addresses that are not public, or null. Their PTR records are the private network's own (RFC 6761 section
 * 6.1, RFC 6303): asking the service's resolver would tell a caller the names of hosts on the operator's network. A
 * zone counts when every address under it is not public (its first and last address both, as for 10.in-addr.arpa).
 */
export function nonPublicReverseNameReason(name: string): string | null {
  const n = name.toLowerCase().replace(/\.$/, "");
  const range = reverseRange(n);
  if (!range) return null;
  const [first, last] = range;
  if (isPubliclyRoutable(first) || isPubliclyRoutable(last)) return null;
  const c = classifyIp(first);
  return `${n} is the reverse name of ${scopeAddressWords(c.scope)}${c.range ? ` in ${c.range}` : ""}, whose names only that network's own DNS holds`;
}

/**
 * The first and last address a reverse name covers, or null when it is no reverse name. The zone is the run of address
 * labels just above `in-addr.arpa` (at most 4) or `ip6.arpa` (at most 32): the labels before it (a fifth octet, an RFC
 * 2317 classless label such as `0-25`, `_x`) name something inside that zone, which is the zone's network's all the same.
 */
function reverseRange(n: string): [string, string] | null {
  const labels = n.split(".");
  const tail = labels.slice(-2).join(".");
  const [max, isLabel] =
    tail === "in-addr.arpa"
      ? [4, (l: string) => /^\d{1,3}$/.test(l) && Number(l) <= 255]
      : tail === "ip6.arpa"
        ? [32, (l: string) => /^[0-9a-f]$/.test(l)]
        : [0, () => false];
  const zone: string[] = [];
  for (let i = labels.length - 3; i >= 0 && zone.length < max && isLabel(labels[i]!); i--) zone.push(labels[i]!);
  if (!zone.length) return null;
  if (tail === "in-addr.arpa") {
    const pad = (fill: number) => [...zone, ...Array(4 - zone.length).fill(String(fill))].join(".");
    return [pad(0), pad(255)];
  }
  const address = (fill: string) => zone.join("").padEnd(32, fill).match(/.{4}/g)!.join(":");
  return [address("0"), address("f")];
}
