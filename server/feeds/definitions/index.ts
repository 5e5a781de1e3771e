// The feeds this area defines (IP intelligence and evidence ranges, RDAP bootstrap, public suffixes).
import type { FeedDefinition } from "../types";
import { asnIpv4Feed, asnIpv6Feed } from "./asn";
import { CLOUD_FEEDS } from "./cloud";
import { EVIDENCE_FEEDS } from "./evidence";
import { hostingAsnsFeed } from "./hosting-asns";
import { publicSuffixFeed } from "./public-suffix";
import { rdapBootstrapFeeds } from "./rdap-bootstrap";
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
  publicSuffixFeed,
  ...Object.values(rdapBootstrapFeeds),
] as FeedDefinition<unknown>[];
