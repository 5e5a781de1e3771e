// The IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and updates), plus multicast, as data.
// `routable` follows the registry's "Globally Reachable" column; where it says N/A or the range embeds another
// address (6to4, Teredo) we say false, because the SSRF guard must never treat an unclear range as public.

export type IpScope =
  | "public"
  | "private"
  | "loopback"
  | "link_local"
  | "unique_local"
  | "carrier_grade_nat"
  | "multicast"
  | "unspecified"
  | "broadcast"
  | "documentation"
  | "benchmarking"
  | "reserved"
  | "ipv4_mapped"
  | "nat64"
  | "teredo"
  | "6to4"
  | "site_local"
  | "discard";

export type RangeRow = { cidr: string; scope: IpScope; reason: string; routable: boolean };

export const IPV4_SPECIAL: readonly RangeRow[] = [
  {
    cidr: "0.0.0.0/32",
    scope: "unspecified",
    reason: 'Unspecified address ("this host on this network", RFC 1122)',
    routable: false,
  },
  { cidr: "0.0.0.0/8", scope: "reserved", reason: '"This network" (RFC 791)', routable: false },
  { cidr: "10.0.0.0/8", scope: "private", reason: "Private-use network (RFC 1918)", routable: false },
  {
    cidr: "100.64.0.0/10",
    scope: "carrier_grade_nat",
    reason: "Shared address space for carrier-grade NAT (RFC 6598)",
    routable: false,
  },
  { cidr: "127.0.0.0/8", scope: "loopback", reason: "Loopback (RFC 1122)", routable: false },
  {
    cidr: "169.254.0.0/16",
    scope: "link_local",
    reason: "Link-local (RFC 3927); includes cloud metadata 169.254.169.254",
    routable: false,
  },
  { cidr: "172.16.0.0/12", scope: "private", reason: "Private-use network (RFC 1918)", routable: false },
  { cidr: "192.0.0.0/24", scope: "reserved", reason: "IETF protocol assignments (RFC 6890)", routable: false },
  {
    cidr: "192.0.0.0/29",
    scope: "reserved",
    reason: "IPv4 service continuity prefix, DS-Lite (RFC 7335)",
    routable: false,
  },
  { cidr: "192.0.0.8/32", scope: "reserved", reason: "IPv4 dummy address (RFC 7600)", routable: false },
  { cidr: "192.0.0.9/32", scope: "public", reason: "Port Control Protocol anycast (RFC 7723)", routable: true },
  {
    cidr: "192.0.0.10/32",
    scope: "public",
    reason: "Traversal Using Relays around NAT anycast (RFC 8155)",
    routable: true,
  },
  { cidr: "192.0.0.170/31", scope: "reserved", reason: "NAT64/DNS64 discovery (RFC 7050)", routable: false },
  { cidr: "192.0.2.0/24", scope: "documentation", reason: "Documentation TEST-NET-1 (RFC 5737)", routable: false },
  { cidr: "192.31.196.0/24", scope: "public", reason: "AS112-v4 (RFC 7535)", routable: true },
  { cidr: "192.52.193.0/24", scope: "public", reason: "Automatic multicast tunneling (RFC 7450)", routable: true },
  { cidr: "192.88.99.0/24", scope: "6to4", reason: "Deprecated 6to4 relay anycast (RFC 7526)", routable: false },
  { cidr: "192.168.0.0/16", scope: "private", reason: "Private-use network (RFC 1918)", routable: false },
  { cidr: "192.175.48.0/24", scope: "public", reason: "Direct delegation AS112 service (RFC 7534)", routable: true },
  { cidr: "198.18.0.0/15", scope: "benchmarking", reason: "Benchmarking (RFC 2544)", routable: false },
  { cidr: "198.51.100.0/24", scope: "documentation", reason: "Documentation TEST-NET-2 (RFC 5737)", routable: false },
  { cidr: "203.0.113.0/24", scope: "documentation", reason: "Documentation TEST-NET-3 (RFC 5737)", routable: false },
  { cidr: "224.0.0.0/4", scope: "multicast", reason: "Multicast (RFC 5771)", routable: false },
  { cidr: "240.0.0.0/4", scope: "reserved", reason: "Reserved for future use (RFC 1112)", routable: false },
  { cidr: "255.255.255.255/32", scope: "broadcast", reason: "Limited broadcast (RFC 919)", routable: false },
];

// Rows whose scope is "ipv4_mapped", "nat64" or "6to4" with an embedded address are resolved by ip.ts against the
// embedded IPv4 address, so ::ffff:127.0.0.1 is loopback, not merely "mapped".
export const IPV6_SPECIAL: readonly RangeRow[] = [
  { cidr: "::/128", scope: "unspecified", reason: "Unspecified address (RFC 4291)", routable: false },
  { cidr: "::1/128", scope: "loopback", reason: "Loopback (RFC 4291)", routable: false },
  { cidr: "::ffff:0:0/96", scope: "ipv4_mapped", reason: "IPv4-mapped address (RFC 4291)", routable: true },
  { cidr: "::/96", scope: "reserved", reason: "Deprecated IPv4-compatible address (RFC 4291)", routable: false },
  { cidr: "64:ff9b::/96", scope: "nat64", reason: "NAT64 well-known prefix (RFC 6052)", routable: true },
  { cidr: "64:ff9b:1::/48", scope: "nat64", reason: "Local-use NAT64 prefix (RFC 8215)", routable: false },
  { cidr: "100::/64", scope: "discard", reason: "Discard-only prefix (RFC 6666)", routable: false },
  { cidr: "100:0:0:1::/64", scope: "reserved", reason: "Dummy IPv6 prefix (RFC 9780)", routable: false },
  { cidr: "2001::/23", scope: "reserved", reason: "IETF protocol assignments (RFC 2928)", routable: false },
  {
    cidr: "2001::/32",
    scope: "teredo",
    reason: "Teredo tunnelling (RFC 4380); embeds an IPv4 server and client",
    routable: false,
  },
  { cidr: "2001:1::1/128", scope: "public", reason: "Port Control Protocol anycast (RFC 7723)", routable: true },
  { cidr: "2001:1::2/128", scope: "public", reason: "TURN anycast (RFC 8155)", routable: true },
  {
    cidr: "2001:1::3/128",
    scope: "public",
    reason: "DNS-SD service registration protocol anycast (RFC 9665)",
    routable: true,
  },
  { cidr: "2001:2::/48", scope: "benchmarking", reason: "Benchmarking (RFC 5180)", routable: false },
  { cidr: "2001:3::/32", scope: "public", reason: "Automatic multicast tunneling (RFC 7450)", routable: true },
  { cidr: "2001:4:112::/48", scope: "public", reason: "AS112-v6 (RFC 7535)", routable: true },
  { cidr: "2001:10::/28", scope: "reserved", reason: "Deprecated ORCHID (RFC 4843)", routable: false },
  { cidr: "2001:20::/28", scope: "public", reason: "ORCHIDv2 (RFC 7343)", routable: true },
  { cidr: "2001:30::/28", scope: "public", reason: "Drone remote ID protocol entity tags (RFC 9374)", routable: true },
  { cidr: "2001:db8::/32", scope: "documentation", reason: "Documentation (RFC 3849)", routable: false },
  { cidr: "2002::/16", scope: "6to4", reason: "6to4 (RFC 3056); embeds an IPv4 address", routable: false },
  { cidr: "2620:4f:8000::/48", scope: "public", reason: "Direct delegation AS112 service (RFC 7534)", routable: true },
  { cidr: "3fff::/20", scope: "documentation", reason: "Documentation (RFC 9637)", routable: false },
  { cidr: "5f00::/16", scope: "reserved", reason: "Segment routing (SRv6) SIDs (RFC 9602)", routable: false },
  {
    cidr: "fc00::/7",
    scope: "unique_local",
    reason: "Unique local address (RFC 4193); includes AWS metadata fd00:ec2::254",
    routable: false,
  },
  { cidr: "fe80::/10", scope: "link_local", reason: "Link-local unicast (RFC 4291)", routable: false },
  { cidr: "fec0::/10", scope: "site_local", reason: "Deprecated site-local unicast (RFC 3879)", routable: false },
  { cidr: "ff00::/8", scope: "multicast", reason: "Multicast (RFC 4291)", routable: false },
];

/** Outside 2000::/3 nothing is allocated for global unicast (IANA IPv6 Address Space registry). */
export const IPV6_GLOBAL_UNICAST = "2000::/3";
