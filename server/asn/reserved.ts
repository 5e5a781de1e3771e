// AS numbers no registry delegates to anyone (IANA's "Special-Purpose AS Numbers" registry): no routing table or RDAP
// server can know them, so a lookup of one is answered from the request alone, before admission, free
// (server/api/input-decisions.ts).
const RESERVED: { from: number; to: number; what: string }[] = [
  { from: 0, to: 0, what: "reserved (RFC 7607)" },
  { from: 23456, to: 23456, what: "AS_TRANS, the 2-byte stand-in for 4-byte AS numbers (RFC 6793)" },
  { from: 64496, to: 64511, what: "for documentation (RFC 5398)" },
  { from: 64512, to: 65534, what: "for private use (RFC 6996)" },
  { from: 65535, to: 65535, what: "reserved (RFC 7300)" },
  { from: 65536, to: 65551, what: "for documentation (RFC 5398)" },
  { from: 65552, to: 131071, what: "reserved by IANA" },
  { from: 4200000000, to: 4294967294, what: "for private use (RFC 6996)" },
  { from: 4294967295, to: 4294967295, what: "reserved (RFC 7300)" },
];

/** Why `asn` can belong to no one ("AS64512 is for private use (RFC 6996)"), or null for a delegable number. */
export function reservedAsnReason(asn: number): string | null {
  const hit = RESERVED.find((r) => asn >= r.from && asn <= r.to);
  return hit ? `AS${asn} is ${hit.what}` : null;
}
