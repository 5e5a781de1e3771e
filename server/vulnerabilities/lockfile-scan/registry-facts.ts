// The registry side of a scan: one registry document per distinct package (not per version), fetched with bounded
// concurrency through the shared package cache, with the typosquat check of the name beside it; then each scanned
// version's supply-chain findings from that document. A registry that fails for one package costs only that
// package's findings, named with the reason; it never fails the scan.
import { setting } from "../../env";
import { upstreamTimeoutMs } from "../../providers/packages/config";
import type { Fetched } from "../../providers/packages/http";
import { mapLimited } from "../../providers/packages/osv";
import type { RegistryPackage } from "../../providers/packages/registry-types";
import type { ParsedPackage } from "../lockfiles/types";
import { lookupRegistry, REGISTRY_NAME } from "../registry";
import { supplyChainFindings, type SupplyChainFinding } from "../supply-chain";
import type { TyposquatMatch } from "../typosquat";
import { checkTyposquat, type TyposquatCheck } from "../typosquat-check";
import type { Ecosystem } from "../versions";
import type { ScannedPackage } from "./schemas";

export type RegistryFacts = {
  /** The package's name, as scanned. */
  name: string;
  registry: Fetched<RegistryPackage>;
  typosquat: TyposquatMatch | null;
  /** Whether the typosquat check could be done, and why not. */
  typosquatCheck: TyposquatCheck;
};

const nameKey = (eco: Ecosystem, name: string) => `${eco}\u0000${name}`;

/** Each distinct package's registry document and typosquat match, keyed by ecosystem and name. */
export async function fetchRegistryFacts(packages: ParsedPackage[]): Promise<Map<string, RegistryFacts>> {
  const names = new Map<string, { eco: Ecosystem; name: string }>();
  for (const p of packages) names.set(nameKey(p.ecosystem, p.name), { eco: p.ecosystem, name: p.name });
  const list = [...names.entries()];
  const concurrency = setting("SERVICE_SCAN_REGISTRY_CONCURRENCY");
  // Timeouts in a row per ecosystem, since its registry last answered from the network. Once a whole round of requests
  // (as many as run at once) has timed out with no answer between, the rest of that ecosystem's packages are not
  // asked: a registry that is down costs about two timeouts (the round, and the requests that started as its first
  // ones timed out), not one per round of the scan's packages.
  const inARow = new Map<Ecosystem, number>();
  const factsOf = async ([, { eco, name }]: (typeof list)[number]): Promise<RegistryFacts> => {
    const registry: Fetched<RegistryPackage> =
      (inARow.get(eco) ?? 0) >= concurrency
        ? { kind: "unavailable", url: "", reason: "timed out" }
        : await lookupRegistry(eco, name);
    if (registry.kind === "ok" && !registry.cached) inARow.set(eco, 0);
    else if (timedOutFetch(registry)) inARow.set(eco, (inARow.get(eco) ?? 0) + 1);
    // The check is evidence beside the registry's; what it could not do is its status, never a failed scan.
    const { match, check } = await checkTyposquat(eco, name, registry);
    return { name, registry, typosquat: match, typosquatCheck: check };
  };
  const facts = await mapLimited(list, concurrency, factsOf);
  // A request that timed out while its registry answered others from the network is asked once more, after them and
  // a few at a time: a cold scan opens many connections at once, and through a congested network (a NAT or proxy
  // that throttles a burst of new connections) some stall until the timeout although the registry is up; asked again
  // they answer at once (npm's own client retries, on at most 15 sockets). Only an answer that reached the registry
  // counts (one from the package cache says nothing of it now), per ecosystem, and the second pass starts no request
  // after one timeout has gone by: a registry that answered none is not asked again, and a partial outage (a mirror
  // that answers what it holds and hangs on the rest) costs about two timeouts more, not one per batch of stalls.
  const reached = new Set(list.flatMap(([, { eco }], i) => (answeredFromNetwork(facts[i]!) ? [eco] : [])));
  const stalled = list.flatMap(([, { eco }], i) => (timedOut(facts[i]!) && reached.has(eco) ? [i] : []));
  if (stalled.length > 0) {
    for (const eco of reached) inARow.set(eco, 0);
    const until = Date.now() + upstreamTimeoutMs();
    const again = await mapLimited(stalled, RETRY_CONCURRENCY, (i) =>
      Date.now() < until ? factsOf(list[i]!) : Promise.resolve(facts[i]!),
    );
    stalled.forEach((i, k) => (facts[i] = again[k]!));
  }
  return new Map(list.map(([key], i) => [key, facts[i]!]));
}

/** Documents asked for again at once after a stall: few, so the second try is not a burst of its own. */
const RETRY_CONCURRENCY = 8;

const timedOutFetch = (r: Fetched<RegistryPackage>) => r.kind === "unavailable" && r.reason === "timed out";
const timedOut = (f: RegistryFacts) => timedOutFetch(f.registry);

/** The registry answered this package's document now, not the package cache from an earlier scan. */
const answeredFromNetwork = (f: RegistryFacts) => f.registry.kind === "ok" && !f.registry.cached;

/** One version's findings and how the registry answered for it. */
export function versionFindings(
  p: ParsedPackage,
  facts: RegistryFacts | undefined,
  now: Date,
): {
  findings: SupplyChainFinding[];
  registry: ScannedPackage["registry"];
  typosquatCheck: ScannedPackage["typosquatCheck"];
} {
  const r = facts?.registry;
  if (!r)
    return {
      findings: [],
      registry: { status: "unavailable", reason: "not looked up", fetchedAt: null },
      typosquatCheck: { status: "unavailable", reason: "not looked up" },
    };
  const typosquatCheck = facts.typosquatCheck;
  if (r.kind === "ok")
    return {
      findings: supplyChainFindings(p.ecosystem, r.value, p.version, now, facts.typosquat),
      registry: { status: "ok", reason: null, fetchedAt: r.fetchedAt },
      typosquatCheck,
    };
  const name = REGISTRY_NAME[p.ecosystem];
  return {
    typosquatCheck,
    findings: supplyChainFindings(p.ecosystem, null, p.version, now, facts.typosquat),
    registry:
      r.kind === "not_found"
        ? { status: "not_found", reason: `${name} has no package ${p.name}`, fetchedAt: null }
        : {
            status: "unavailable",
            reason: `${name} is unavailable (${r.reason}); supply-chain findings are missing`,
            fetchedAt: null,
          },
  };
}

export { nameKey };
