// /domain/{domain}/subdomains (spec behaviour 1): certificate-transparency names under the registrable apex,
// deduplicated with first and last seen. Each success is retained; when the CT source is down the retained answer
// is served and marked, and only without one is the answer 503.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { fetchCtEntries, type CtEntry } from "../providers/ct/client";
import { registrableNameOf } from "./registrable";
import { findRetainedResponse, retainResponse } from "./retained";
import type { Subdomain, SubdomainResponse } from "./schemas";

type RetainedCt = { apex: string; sourceUrl: string; subdomains: Subdomain[] };

const NOTE =
  "Names come from certificates logged in certificate transparency: historical naming data, not proof that a name resolves or serves today.";

const minIso = (a: string | null, b: string | null) => (!a ? b : !b ? a : a < b ? a : b);
const maxIso = (a: string | null, b: string | null) => (!a ? b : !b ? a : a > b ? a : b);

/** One row per name at or below the apex; "*.x" counts for x and flags it as wildcard-covered. */
export function aggregateCtNames(apex: string, entries: CtEntry[]): Subdomain[] {
  const byName = new Map<string, Subdomain>();
  const suffix = `.${apex}`;
  for (const e of entries) {
    const seenHere = new Set<string>();
    for (const raw of e.names) {
      const wildcard = raw.startsWith("*.");
      const name = wildcard ? raw.slice(2) : raw;
      if (name !== apex && !name.endsWith(suffix)) continue;
      if (!/^[a-z0-9_.-]+$/.test(name)) continue;
      let row = byName.get(name);
      if (!row) {
        row = { name, firstSeen: null, lastSeen: null, lastExpiry: null, certificates: 0, wildcard: false };
        byName.set(name, row);
      }
      row.wildcard ||= wildcard;
      if (seenHere.has(name)) continue;
      seenHere.add(name);
      const seen = e.notBefore ?? e.loggedAt;
      row.certificates++;
      row.firstSeen = minIso(row.firstSeen, seen);
      row.lastSeen = maxIso(row.lastSeen, seen);
      row.lastExpiry = maxIso(row.lastExpiry, e.notAfter);
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

const retainKey = (apex: string) => `ct-subdomains:${apex}`;

export async function getSubdomainsOrThrow(input: {
  domain: string;
  limit: number;
  offset: number;
  db?: Db;
}): Promise<SubdomainResponse> {
  const reg = registrableNameOf(input.domain);
  if (!reg.ok) throw new AppError("INVALID_REQUEST", reg.reason);
  const { hostname, registrableDomain: apex } = reg.name;
  const outcome = await fetchCtEntries(apex);
  let data: RetainedCt;
  let fetchedAt: Date;
  let retained = false;
  let unavailableReason: string | null = null;
  if (outcome.ok) {
    data = { apex, sourceUrl: outcome.sourceUrl, subdomains: aggregateCtNames(apex, outcome.entries) };
    fetchedAt = outcome.fetchedAt;
    await retainResponse(retainKey(apex), data, fetchedAt, input.db);
  } else {
    const kept = await findRetainedResponse<RetainedCt>(retainKey(apex), input.db);
    if (!kept) {
      throw new AppError(
        "UPSTREAM_UNAVAILABLE",
        `The certificate-transparency source is unavailable (${outcome.reason}) and no retained response exists for ${apex}.`,
      );
    }
    data = kept.body;
    fetchedAt = kept.fetchedAt;
    retained = true;
    unavailableReason = `The certificate-transparency source is unavailable: ${outcome.reason}.`;
  }
  return {
    domain: hostname,
    apex,
    total: data.subdomains.length,
    limit: input.limit,
    offset: input.offset,
    subdomains: data.subdomains.slice(input.offset, input.offset + input.limit),
    retained,
    fetchedAt: fetchedAt.toISOString(),
    unavailableReason,
    note: NOTE,
    sources: [
      {
        name: "certificate-transparency",
        url: data.sourceUrl,
        fetchedAt: fetchedAt.toISOString(),
        status: retained ? "unavailable" : "ok",
        reason: unavailableReason,
      },
    ],
  };
}
