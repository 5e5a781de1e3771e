// The 20 targets of the blocklist scenario and the DNSBL zone data the local DNS server answers for them: a mix
// of IPv4, IPv6 and domains, some listed (an A record in 127.0.0.0/8 plus a TXT reason), the rest not listed
// (NXDOMAIN), as a real check of a mail log would see. The zones are pinned so the user's settings do not leak in.
import type { FakeRecord } from "../test/fakes/dns-server";
import { reversedLabels } from "../server/dns/reverse";

export const BENCH_IP_ZONES = ["zen.spamhaus.org", "bl.spamcop.net", "b.barracudacentral.org"];
export const BENCH_DOMAIN_ZONES = ["dbl.spamhaus.org", "multi.surbl.org"];

// Documentation and benchmark ranges (RFC 5737, 2544, 3849): never real senders, so no real list is implied.
const LISTED_IPV4 = ["192.0.2.10", "198.51.100.23", "203.0.113.77", "198.18.0.5"];
const CLEAN_IPV4 = [
  "192.0.2.11",
  "192.0.2.12",
  "198.51.100.24",
  "198.51.100.25",
  "203.0.113.78",
  "203.0.113.79",
  "198.18.0.6",
  "198.18.0.7",
  "198.19.1.1",
  "198.19.1.2",
];
const LISTED_IPV6 = ["2001:db8::bad"];
const CLEAN_IPV6 = ["2001:db8::1"];
const LISTED_DOMAINS = ["spam-sender.example", "mail.phish-kit.example"];
const CLEAN_DOMAINS = ["newsletter.example", "shop.example.org"];

export const BLOCKLIST_TARGETS: readonly string[] = [
  ...LISTED_IPV4,
  ...CLEAN_IPV4,
  ...LISTED_IPV6,
  ...CLEAN_IPV6,
  ...LISTED_DOMAINS,
  ...CLEAN_DOMAINS,
];
if (BLOCKLIST_TARGETS.length !== 20)
  throw new Error(`the blocklist scenario needs 20 targets, has ${BLOCKLIST_TARGETS.length}`);

const listed = (code: string, why: string): FakeRecord[] => [
  { type: "A", data: code },
  { type: "TXT", data: [why] },
];

/** Zone records: each listed IPv4 on two of the three IP lists, the listed IPv6 on zen, listed domains on dbl. */
export function dnsblRecords(): Record<string, FakeRecord[]> {
  const records: Record<string, FakeRecord[]> = {};
  for (const ip of LISTED_IPV4) {
    const rev = reversedLabels(ip)!;
    records[`${rev}.zen.spamhaus.org`] = listed("127.0.0.2", `https://check.spamhaus.org/query/ip/${ip}`);
    records[`${rev}.bl.spamcop.net`] = listed("127.0.0.2", `Blocked - see https://www.spamcop.net/bl.shtml?${ip}`);
  }
  for (const ip of LISTED_IPV6)
    records[`${reversedLabels(ip)!}.zen.spamhaus.org`] = listed("127.0.0.3", "https://check.spamhaus.org/");
  for (const d of LISTED_DOMAINS) {
    records[`${d}.dbl.spamhaus.org`] = listed("127.0.1.2", `https://check.spamhaus.org/query/domain/${d}`);
    records[`${d}.multi.surbl.org`] = listed("127.0.0.16", `${d} is listed on SURBL`);
  }
  return records;
}

/** How many targets the zone data lists (the scenario's probe checks the answer against it). */
export const LISTED_TARGETS = LISTED_IPV4.length + LISTED_IPV6.length + LISTED_DOMAINS.length;
