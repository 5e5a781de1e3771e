// The SSRF guard: every server-side connection to a user-supplied host or URL goes through vetTarget, which resolves
// the name once and refuses the whole target when any of its addresses is not on the public internet (an attacker
// can mix a public and a private record). Callers then connect to the vetted address only (see connect.ts).
import { AppError } from "../errors";
import { classifyIp, isPubliclyRoutable, type IpScope } from "./ip";
import { allowPrivateTargets } from "./config";
import { scopeAddressWords } from "./special-use";
import { defaultResolver, type TargetResolver } from "./resolve";
import { isWrittenAsUrl, parseHostAndPort, parseTargetUrl } from "./target";

/** Cloud instance-metadata and similar endpoints: refused even when private targets are allowed. */
const METADATA_ADDRESSES = new Set([
  "169.254.169.254", // AWS, GCP, Azure, OCI, DigitalOcean, OpenStack
  "169.254.169.253", // AWS VPC resolver
  "169.254.169.123", // AWS time sync
  "169.254.170.2", // AWS ECS task metadata
  "169.254.170.23", // AWS EKS pod identity
  "100.100.100.200", // Alibaba Cloud
  "192.0.0.192", // Oracle Cloud (legacy)
  "fd00:ec2::254", // AWS IPv6 metadata
  "fd00:ec2::253",
  "fd00:ec2::123",
  "fd00:ec2::23",
]);

const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
  "metadata.platformequinix.com",
  "kubernetes.default",
  "kubernetes.default.svc",
]);

/** Names that only mean something inside a private network (RFC 6761, RFC 6762, RFC 8375, ICANN .internal). */
const PRIVATE_SUFFIXES = [
  ".localhost",
  ".local",
  ".internal",
  ".home.arpa",
  ".lan",
  ".intranet",
  ".corp",
  ".localdomain",
];

/** Scopes opened by SERVICE_ALLOW_PRIVATE_TARGETS; link-local (metadata), multicast and the rest stay closed. */
const OPENABLE: ReadonlySet<IpScope> = new Set<IpScope>(["loopback", "private", "unique_local", "carrier_grade_nat"]);

export type VetOptions = { resolver?: TargetResolver; allowPrivate?: boolean };

export type VettedTarget = {
  host: string;
  isIpLiteral: boolean;
  /** Vetted addresses, IPv4 first; connect to these and only these. */
  addresses: string[];
  resolver: string;
  dnsMs: number;
};

export type VetResult =
  | { kind: "ok"; target: VettedTarget }
  | { kind: "forbidden"; host: string; address: string | null; reason: string }
  | { kind: "unresolved"; host: string; reason: string; notFound: boolean; resolver: string; dnsMs: number };

/** Why an address must not be connected to, or null when it may. */
export function addressRefusal(address: string, allowPrivate = allowPrivateTargets()): string | null {
  if (METADATA_ADDRESSES.has(address) || METADATA_ADDRESSES.has(address.replace(/^::ffff:/, ""))) {
    return `${address} is a cloud instance-metadata address`;
  }
  if (isPubliclyRoutable(address)) return null;
  const c = classifyIp(address);
  if (allowPrivate && OPENABLE.has(c.scope)) return null;
  return `${address} is ${scopeAddressWords(c.scope)}${c.range ? ` in ${c.range}` : ""} (${c.reason ?? "not publicly routable"})`;
}

function nameRefusal(host: string, allowPrivate: boolean): string | null {
  if (METADATA_NAMES.has(host)) return `${host} is a cloud instance-metadata host name`;
  if (allowPrivate) return null;
  if (host === "localhost" || PRIVATE_SUFFIXES.some((s) => host.endsWith(s)))
    return `${host} is a private-use host name`;
  if (!host.includes(".")) return `${host} is a single-label name, which only resolves inside a private network`;
  return null;
}

/** Resolves and vets one host (name or IP literal in any spelling). Never throws. */
export async function vetTarget(hostInput: string, opts: VetOptions = {}): Promise<VetResult> {
  const allowPrivate = opts.allowPrivate ?? allowPrivateTargets();
  const parsed = parseHostAndPort(hostInput);
  if (!parsed)
    return {
      kind: "forbidden",
      host: hostInput,
      address: null,
      reason: `${hostInput} is not a valid host name or IP address`,
    };
  const { host, address } = parsed;
  if (address) {
    const why = addressRefusal(address, allowPrivate);
    if (why) return { kind: "forbidden", host, address, reason: why };
    return { kind: "ok", target: { host, isIpLiteral: true, addresses: [address], resolver: "literal", dnsMs: 0 } };
  }
  const byName = nameRefusal(host, allowPrivate);
  if (byName) return { kind: "forbidden", host, address: null, reason: byName };
  const resolver = opts.resolver ?? defaultResolver();
  let res;
  try {
    res = await resolver(host);
  } catch (err) {
    return {
      kind: "unresolved",
      host,
      reason: `DNS resolution failed (${(err as Error).message})`,
      notFound: false,
      resolver: "unknown",
      dnsMs: 0,
    };
  }
  if (!res.ok)
    return {
      kind: "unresolved",
      host,
      reason: res.reason,
      notFound: res.notFound,
      resolver: res.resolver,
      dnsMs: res.durationMs,
    };
  for (const a of res.addresses) {
    const why = addressRefusal(a, allowPrivate);
    // "x.example resolves to 10.0.0.5, which is a private address ...": the refusal reads as one sentence.
    if (why)
      return { kind: "forbidden", host, address: a, reason: `${host} resolves to ${a}, which${why.slice(a.length)}` };
  }
  return {
    kind: "ok",
    target: { host, isIpLiteral: false, addresses: res.addresses, resolver: res.resolver, dnsMs: res.durationMs },
  };
}

export function targetForbidden(reason: string): AppError {
  return new AppError(
    "TARGET_FORBIDDEN",
    `Target refused: ${reason}. The service only connects to public internet hosts.`,
  );
}

/** Host part of a host, host:port or http(s) URL input, or null when it is none of them. */
export function hostOfInput(hostOrUrl: string): string | null {
  if (isWrittenAsUrl(hostOrUrl)) {
    const u = parseTargetUrl(hostOrUrl);
    return u ? (u.host.includes(":") ? `[${u.host}]` : u.host) : null;
  }
  return parseHostAndPort(hostOrUrl) ? hostOrUrl : null;
}

/**
 * Pre-admission check (run before units are reserved): throws TARGET_FORBIDDEN for a target that is, or resolves
 * to, a non-public address. A name that does not resolve passes: that is an answer for the lookup to give, not an
 * input error. The connection itself vets again (DNS can change between the two).
 */
export async function assertPublicTargetOrThrow(hostOrUrl: string, opts: VetOptions = {}): Promise<void> {
  const host = hostOfInput(hostOrUrl);
  if (!host) throw new AppError("INVALID_REQUEST", `${hostOrUrl.slice(0, 100)} is not a valid host or http(s) URL.`);
  const res = await vetTarget(host, opts);
  if (res.kind === "forbidden") throw targetForbidden(res.reason);
}

/** Vets and returns the target, throwing TARGET_FORBIDDEN or UPSTREAM-neutral resolution errors as data. */
export async function resolveTargetOrThrow(
  hostInput: string,
  opts: VetOptions = {},
): Promise<Exclude<VetResult, { kind: "forbidden" }>> {
  const res = await vetTarget(hostInput, opts);
  if (res.kind === "forbidden") throw targetForbidden(res.reason);
  return res;
}
