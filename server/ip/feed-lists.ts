// Reputation list memberships of an address (and of its origin AS). A list whose feed holds no data answers
// `listed: null` with the reason, never `false`: "not listed" must mean the list was consulted.
import { spamhausAsnDropFeed, spamhausDropFeed, spamhausDropV6Feed } from "../feeds/definitions/spamhaus";
import { torExitsFeed } from "../feeds/definitions/tor-exits";
import { getFeed } from "../feeds/loader";
import { emptyFeedReason, feedSourceRef, type FeedSourceRef } from "../feeds/source";

export interface ListMembership {
  /** Feed name, e.g. "spamhaus-drop". */
  list: string;
  /** Human name of the list. */
  name: string;
  /** What was looked up: the address itself or its origin AS. */
  matchedOn: "ip" | "asn";
  listed: boolean | null;
  /** The matching entry (CIDR, SBL reference, AS name) when listed. */
  detail: string | null;
  reason: string | null;
}

export async function checkLists(
  address: string,
  asn: number | null,
): Promise<{ lists: ListMembership[]; sources: FeedSourceRef[] }> {
  const lists: ListMembership[] = [];
  const sources: FeedSourceRef[] = [];

  const tor = await getFeed(torExitsFeed);
  sources.push(feedSourceRef(torExitsFeed, tor));
  const torEmpty = emptyFeedReason(torExitsFeed, tor);
  lists.push({
    list: torExitsFeed.name,
    name: "Tor exit relays (The Tor Project)",
    matchedOn: "ip",
    listed: torEmpty ? null : tor.data.has(address),
    detail: null,
    reason: torEmpty,
  });

  const dropDef = address.includes(":") ? spamhausDropV6Feed : spamhausDropFeed;
  const drop = await getFeed(dropDef);
  sources.push(feedSourceRef(dropDef, drop));
  const dropEmpty = emptyFeedReason(dropDef, drop);
  const hit = dropEmpty ? null : drop.data.lookup(address);
  lists.push({
    list: dropDef.name,
    name: address.includes(":") ? "Spamhaus DROPv6" : "Spamhaus DROP",
    matchedOn: "ip",
    listed: dropEmpty ? null : hit !== null,
    detail: hit ? [hit.cidr, hit.sblId].filter(Boolean).join(" ") : null,
    reason: dropEmpty,
  });

  const asnDrop = await getFeed(spamhausAsnDropFeed);
  sources.push(feedSourceRef(spamhausAsnDropFeed, asnDrop));
  const asnEmpty = emptyFeedReason(spamhausAsnDropFeed, asnDrop);
  const asnHit = !asnEmpty && asn !== null ? (asnDrop.data.get(asn) ?? null) : null;
  lists.push({
    list: spamhausAsnDropFeed.name,
    name: "Spamhaus ASN-DROP",
    matchedOn: "asn",
    listed: asnEmpty ? null : asn === null ? null : asnHit !== null,
    detail: asnHit ? `AS${asnHit.asn}${asnHit.name ? ` ${asnHit.name}` : ""}` : null,
    reason: asnEmpty ?? (asn === null ? "No origin AS known for this address" : null),
  });
  return { lists, sources };
}
