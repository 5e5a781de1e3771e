// zod contract of the IP reputation object (the OpenAPI document is generated from it). Shared with the CIDR check.
import { z } from "zod";
import { privacySchema } from "./privacy-schema";

export const feedSourceSchema = z.object({
  name: z.string(),
  description: z.string(),
  origin: z.enum(["shipped", "refreshed"]),
  fetchedAt: z
    .string()
    .nullable()
    .describe("When the data was fetched from its source; null when the feed has never held data"),
  count: z.number().int(),
  version: z.string().nullable(),
  license: z.string(),
  attribution: z.string().nullable(),
});

const flag = z.object({
  value: z.boolean().nullable(),
  reason: z.string().nullable().describe("Why the value is null (no data), or the evidence"),
});

export const listMembershipSchema = z.object({
  list: z.string().describe("Feed name, e.g. spamhaus-drop"),
  name: z.string(),
  matchedOn: z.enum(["ip", "asn"]),
  listed: z.boolean().nullable().describe("null when the list holds no data: never read null as not listed"),
  detail: z.string().nullable(),
  reason: z.string().nullable(),
});

export const riskSchema = z.object({
  score: z.number().int().min(0).max(100),
  level: z.enum(["low", "medium", "high", "critical"]),
  reasons: z.array(z.object({ code: z.string(), points: z.number().int(), reason: z.string() })),
});

export const ipReputationSchema = z.object({
  ip: z.string().describe("Canonical form of the address"),
  version: z.union([z.literal(4), z.literal(6)]),
  classification: z.object({
    scope: z
      .string()
      .describe(
        "public, private, loopback, link_local, unique_local, carrier_grade_nat, multicast, reserved, documentation, ...",
      ),
    range: z.string().nullable(),
    reason: z.string().nullable(),
    bogon: z.boolean().describe("True for any address that is not publicly routable"),
  }),
  asn: z
    .object({
      number: z.number().int(),
      organization: z.string().nullable(),
      route: z.object({ start: z.string(), end: z.string() }),
    })
    .nullable(),
  asnReason: z.string().nullable(),
  network: z.object({
    type: z
      .enum(["anonymizer", "service", "hosting", "residential", "unknown"])
      .describe(
        "anonymizer (Tor, VPN, private relay), service (internet scanner, verified crawler, uptime monitor), hosting (cloud, hosting, CDN), residential (heuristic), unknown; agrees with `privacy`. Order: Tor, a VPN provider's published exit, relay, scanner, crawler, monitor, a VPN operator's network or ASN (medium confidence), hosting",
      ),
    kind: z
      .enum(["tor", "vpn", "relay", "scanner", "crawler", "monitor", "cloud", "platform", "hosting", "cdn"])
      .nullable()
      .describe(
        "cloud where a cloud provider's own published ranges hold the address, or a platform's range is announced by a cloud's own AS (Google's published ranges hold Google Cloud's, announced by AS396982); platform where a platform's own published ranges do (Google, GitHub, Meta, Telegram, X: its own services' egress, such as Google Public DNS, not machines anyone can rent); hosting for a datacenter range or hosting ASN; scanner for an internet-wide scanner",
      ),
    provider: z
      .string()
      .nullable()
      .describe("The VPN provider, scanner organisation, crawler, or hosting operator (the origin AS's organisation)"),
    cloud: z
      .object({ provider: z.string(), region: z.string().nullable(), service: z.string().nullable() })
      .nullable()
      .describe(
        "The cloud or CDN whose own published ranges (or, in a platform's range, whose own AS) hold the address; null otherwise (a platform's own range included)",
      ),
    confidence: z
      .enum(["high", "medium", "low"])
      .nullable()
      .describe(
        "high for an operator's own list (a provider's VPN exit, published ranges, Tor, scanners); medium for a network derived from ASNs (a VPN operator's network, a datacenter range or hosting ASN) and for an organisation-name heuristic on hosting; low for residential",
      ),
    basis: z.array(z.string()).describe("Every match in words: list, range, date, basis, operator, confidence"),
  }),
  privacy: privacySchema,
  anonymizers: z
    .object({ torExit: flag, vpn: flag, proxy: flag, hosting: flag })
    .describe("Earlier flags, kept: `privacy` is the complete classification (hosting here also covers CDN edges)"),
  lists: z.array(listMembershipSchema),
  risk: riskSchema,
  sources: z.array(feedSourceSchema),
  checkedAt: z.string(),
});
