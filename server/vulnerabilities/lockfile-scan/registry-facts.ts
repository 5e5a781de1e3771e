// The registry side of a scan: one registry document per distinct package (not per version), fetched with bounded
// concurrency through the shared package cache, with the typosquat check of the name beside it; then each scanned
// version's supply-chain findings from that document. A registry that fails for one package costs only that
// package's findings, named with the reason; it never fails the scan.
import { setting } from "../../env";
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
  const factsOf = async ([, { eco, name }]: (typeof list)[number]): Promise<RegistryFacts> => {
    const registry = await lookupRegistry(eco, name);
    // The check is evidence beside the registry's; what it could not do is its status, never a failed scan.
    const { match, check } = await checkTyposquat(eco, name, registry);
    return { name, registry, typosquat: match, typosquatCheck: check };
  };
  const facts = await mapLimited(list, setting("SERVICE_SCAN_REGISTRY_CONCURRENCY"), factsOf);
  // A request that timed out while the registry answered others is asked once more, after them and a few at a time:
  // a cold scan opens many connections at once, and through a congested network (a NAT or proxy that throttles a
  // burst of new connections) some stall until the timeout although the registry is up; asked again they answer
  // at once (npm's own client retries, on at most 15 sockets). A registry that answered none is not asked again,
  // so an outage costs one timeout, not two.
  const stalled = list.flatMap((_, i) => (timedOut(facts[i]!) ? [i] : []));
  if (stalled.length > 0 && stalled.length < list.length) {
    const again = await mapLimited(stalled, RETRY_CONCURRENCY, (i) => factsOf(list[i]!));
    stalled.forEach((i, k) => (facts[i] = again[k]!));
  }
  return new Map(list.map(([key], i) => [key, facts[i]!]));
}

/** Documents asked for again at once after a stall: few, so the second try is not a burst of its own. */
const RETRY_CONCURRENCY = 8;

const timedOut = (f: RegistryFacts) => f.registry.kind === "unavailable" && f.registry.reason === "timed out";

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
