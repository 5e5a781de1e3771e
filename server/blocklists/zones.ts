// What the return codes of well-known DNS blocklists mean, and which codes are the operator refusing to answer.
// A zone not in this catalogue still works: any 127.0.0.0/8 answer is "listed" with an unknown meaning.

export type ZoneKind = "ip" | "domain";

export interface ZoneInfo {
  /** The public zone; matched as a suffix so DQS-style zones ("<key>.zen.dq.spamhaus.net") find their entry. */
  zone: string;
  aliases?: string[];
  operator: string;
  kind: ZoneKind;
  ipv6: boolean;
  website: string;
  /** Exact return codes. */
  codes: Record<string, string>;
  /** Return codes that mean "the operator refused this query", never "listed". */
  refusals: Record<string, string>;
  /** SURBL/URIBL-style zones encode several lists as bits of the last octet. */
  bitmask?: Record<number, string>;
}

const SPAMHAUS_REFUSALS = {
  "127.255.255.252": "Typing error in the DNSBL name (Spamhaus error code).",
  "127.255.255.254":
    "Query refused: sent through a public or open resolver. Use your own resolver or a Spamhaus DQS key.",
  "127.255.255.255":
    "Query refused: excessive number of queries from this resolver (rate limit). Use a Spamhaus DQS key.",
};

export const ZONE_CATALOGUE: ZoneInfo[] = [
  {
    zone: "zen.spamhaus.org",
    aliases: ["zen.dq.spamhaus.net"],
    operator: "Spamhaus",
    kind: "ip",
    ipv6: true,
    website: "https://check.spamhaus.org/",
    codes: {
      "127.0.0.2": "SBL: Spamhaus Block List, a direct spam source or spam operation",
      "127.0.0.3": "SBL CSS: a low-reputation sender (snowshoe spam)",
      "127.0.0.4": "XBL: exploited host (infected, proxy or bot)",
      "127.0.0.5": "XBL: exploited host",
      "127.0.0.6": "XBL: exploited host",
      "127.0.0.7": "XBL: exploited host",
      "127.0.0.9": "DROP: a hijacked or criminal network (do not route or peer)",
      "127.0.0.10": "PBL (ISP maintained): an end-user address that should not send mail directly",
      "127.0.0.11": "PBL (Spamhaus maintained): an end-user address that should not send mail directly",
    },
    refusals: SPAMHAUS_REFUSALS,
  },
  {
    zone: "dbl.spamhaus.org",
    aliases: ["dbl.dq.spamhaus.net"],
    operator: "Spamhaus",
    kind: "domain",
    ipv6: false,
    website: "https://check.spamhaus.org/",
    codes: {
      "127.0.1.2": "Spam domain",
      "127.0.1.4": "Phishing domain",
      "127.0.1.5": "Malware domain",
      "127.0.1.6": "Botnet command-and-control domain",
      "127.0.1.102": "Abused legitimate domain: spam",
      "127.0.1.103": "Abused legitimate domain: spammed redirector or URL shortener",
      "127.0.1.104": "Abused legitimate domain: phishing",
      "127.0.1.105": "Abused legitimate domain: malware",
      "127.0.1.106": "Abused legitimate domain: botnet command and control",
    },
    refusals: { ...SPAMHAUS_REFUSALS, "127.0.1.255": "Query refused: IP addresses are not accepted by the DBL." },
  },
  {
    zone: "bl.spamcop.net",
    operator: "SpamCop (Cisco)",
    kind: "ip",
    ipv6: false,
    website: "https://www.spamcop.net/bl.shtml",
    codes: { "127.0.0.2": "Listed: reported by SpamCop users as a source of spam" },
    refusals: {},
  },
  {
    zone: "b.barracudacentral.org",
    operator: "Barracuda Networks",
    kind: "ip",
    ipv6: false,
    website: "https://www.barracudacentral.org/lookups",
    codes: { "127.0.0.2": "Listed: poor sending reputation (Barracuda Reputation Block List)" },
    refusals: {},
  },
  {
    zone: "psbl.surriel.com",
    operator: "Passive Spam Block List",
    kind: "ip",
    ipv6: false,
    website: "https://psbl.org/",
    codes: { "127.0.0.2": "Listed: sent mail to PSBL spam traps" },
    refusals: {},
  },
  {
    zone: "multi.surbl.org",
    operator: "SURBL",
    kind: "domain",
    ipv6: false,
    website: "https://surbl.org/surbl-analysis",
    codes: {},
    refusals: { "127.0.0.1": "Query refused: SURBL blocks this resolver (public resolver or too many queries)." },
    bitmask: { 8: "PH: phishing", 16: "MW: malware", 64: "ABUSE: spam and other abuse", 128: "CR: cracked site" },
  },
  {
    zone: "multi.uribl.com",
    operator: "URIBL",
    kind: "domain",
    ipv6: false,
    website: "https://admin.uribl.com/",
    codes: {},
    refusals: { "127.0.0.1": "Query refused: URIBL blocks this resolver (public resolver or too many queries)." },
    bitmask: { 2: "black: spam domain", 4: "grey: bulk or grey-hat sender", 8: "red: newly seen spam domain" },
  },
];

export function zoneInfo(zone: string): ZoneInfo | null {
  const z = zone.toLowerCase();
  for (const info of ZONE_CATALOGUE) {
    for (const name of [info.zone, ...(info.aliases ?? [])]) if (z === name || z.endsWith(`.${name}`)) return info;
  }
  return null;
}

export type CodeVerdict =
  { kind: "listed"; meaning: string } | { kind: "refused"; meaning: string } | { kind: "invalid"; meaning: string };

/**
 * Reads one A answer of a blocklist query. Only 127.0.0.0/8 can mean "listed": anything else is a resolver that
 * rewrites NXDOMAIN to an advertising page, and must never be reported as a listing.
 */
export function interpretCode(info: ZoneInfo | null, code: string): CodeVerdict {
  if (!code.startsWith("127."))
    return {
      kind: "invalid",
      meaning: `Answer ${code} is outside 127.0.0.0/8: the resolver rewrites answers, so the result is unreliable.`,
    };
  if (info?.refusals[code]) return { kind: "refused", meaning: info.refusals[code] };
  if (code.startsWith("127.255.255."))
    return { kind: "refused", meaning: `Operator error code ${code}: the query was not answered.` };
  if (info?.codes[code]) return { kind: "listed", meaning: info.codes[code] };
  if (info?.bitmask) {
    const last = Number(code.split(".")[3]);
    const parts = Object.entries(info.bitmask)
      .filter(([bit]) => (last & Number(bit)) !== 0)
      .map(([, m]) => m);
    if (parts.length) return { kind: "listed", meaning: parts.join("; ") };
  }
  return {
    kind: "listed",
    meaning: info ? `Listed (return code ${code}, not documented by ${info.operator})` : `Listed (return code ${code})`,
  };
}
