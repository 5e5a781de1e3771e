// Best-effort reputation of a destination: its domain against the configured domain blocklists (DNSBL), bounded
// by a short deadline. Only a positive listing refuses a link; a list that is slow, refuses or fails makes the
// verdict "incomplete", which is reported in the answer and never blocks creation.
import { checkTarget } from "../blocklists/check";
import { dnsblServers, domainZones } from "../blocklists/config";
import { parseTarget } from "../blocklists/targets";
import { safetyCheckEnabled, safetyTimeoutMs } from "./config";

export interface LinkSafety {
  status: "not_listed" | "listed" | "incomplete" | "skipped";
  listed_on: string[];
  /** The blocklist zones asked (the sources of this verdict). */
  sources: string[];
  checked_at: string | null;
  reason: string | null;
}

const skipped = (reason: string): LinkSafety => ({
  status: "skipped",
  listed_on: [],
  sources: [],
  checked_at: null,
  reason,
});

export async function checkDestinationSafety(host: string): Promise<LinkSafety> {
  if (!safetyCheckEnabled()) return skipped("The blocklist check is turned off (SERVICE_LINKS_SAFETY_CHECK).");
  const target = parseTarget(host);
  if ("error" in target || target.kind !== "domain")
    return skipped("The host is not a domain name a blocklist can list.");
  const ms = safetyTimeoutMs();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms + 250);
  });
  const result = await Promise.race([
    checkTarget(target, { servers: dnsblServers(), timeoutMs: ms }),
    deadline,
  ]).finally(() => clearTimeout(timer));
  const checkedAt = new Date().toISOString();
  if (!result)
    return {
      status: "incomplete",
      listed_on: [],
      sources: domainZones(),
      checked_at: checkedAt,
      reason: `The blocklists did not answer within ${ms} ms.`,
    };
  // A special-use name (shop.alt, nas.internal) is sent to no list (server/blocklists/check.ts): no check happened.
  if (result.lists.length === 0 && result.skipped.length > 0) return skipped(result.skipped[0]!.reason);
  const unanswered = result.lists
    .filter((l) => l.status !== "listed" && l.status !== "not_listed")
    .map((l) => `${l.zone} (${l.status})`);
  return {
    status: result.status,
    listed_on: result.listedOn,
    sources: result.lists.map((l) => l.zone),
    checked_at: checkedAt,
    reason: result.status === "incomplete" ? `No usable answer from ${unanswered.join(", ")}.` : null,
  };
}
