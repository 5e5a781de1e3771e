// The feeds this area defines (IP intelligence and evidence ranges, VPN, hosting and scanner lists, RDAP bootstrap,
// public suffixes).
import type { FeedDefinition } from "../types";
import { asnIpv4Feed, asnIpv6Feed } from "./asn";
import { CLOUD_FEEDS } from "./cloud";
import { EVIDENCE_FEEDS } from "./evidence";
import { hostingAsnsFeed } from "./hosting-asns";
import { X4B_ASN_FEEDS, X4B_RANGE_FEEDS } from "./privacy-lists";
import { publicSuffixFeed } from "./public-suffix";
import { rdapBootstrapFeeds } from "./rdap-bootstrap";
import { scannersFeed } from "./scanners";
import { SPAMHAUS_FEEDS } from "./spamhaus";
import { torExitsFeed } from "./tor-exits";

export const BUILTIN_FEEDS: FeedDefinition<unknown>[] = [
  asnIpv4Feed,
  asnIpv6Feed,
  torExitsFeed,
  ...SPAMHAUS_FEEDS,
  ...CLOUD_FEEDS,
  ...EVIDENCE_FEEDS,
  hostingAsnsFeed,
  ...X4B_RANGE_FEEDS,
  ...X4B_ASN_FEEDS,
  scannersFeed,
  publicSuffixFeed,
  ...Object.values(rdapBootstrapFeeds),
] as FeedDefinition<unknown>[];
