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

/** The first and last address a reverse name covers, or null when it is no well-formed reverse name. */
function reverseRange(n: string): [string, string] | null {
  const v4 = /^((?:\d{1,3}\.){1,4})in-addr\.arpa$/.exec(n);
  if (v4) {
    const octets = v4[1]!.slice(0, -1).split(".").reverse().map(Number);
    if (octets.some((o) => o > 255)) return null;
    const pad = (fill: number) => [...octets, ...Array(4 - octets.length).fill(fill)].join(".");
    return [pad(0), pad(255)];
  }
  const v6 = /^((?:[0-9a-f]\.){1,32})ip6\.arpa$/.exec(n);
  if (v6) {
    const nibbles = v6[1]!.slice(0, -1).split(".").reverse().join("");
    const address = (fill: string) => nibbles.padEnd(32, fill).match(/.{4}/g)!.join(":");
    return [address("0"), address("f")];
  }
  return null;
}
