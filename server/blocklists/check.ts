// /blocklists/check: every target against every configured list of its kind, all queries in parallel, each bounded
// by SERVICE_DNSBL_TIMEOUT_MS. A list that refuses or does not answer is reported as such, never as "listed".
import { AppError } from "../errors";
import { specialUseNameReason } from "../net/special-use";
import { queryDns, type DnsServer } from "../providers/dns";
import { dnsblServers, dnsblTimeoutMs, domainZones, ipZones } from "./config";
import type { BlocklistCheckResult, ListResult, TargetResult } from "./schemas";
import { parseTarget, type Target } from "./targets";
import { interpretCode, zoneInfo } from "./zones";

interface QueryEnv {
  servers: DnsServer[];
  timeoutMs: number;
}

type NameOutcome = Pick<ListResult, "status" | "returnCodes" | "detail">;

const RANK: Record<ListResult["status"], number> = { listed: 3, refused: 2, unavailable: 1, not_listed: 0 };

async function queryName(zone: string, name: string, env: QueryEnv): Promise<NameOutcome> {
  const info = zoneInfo(zone);
  const r = await queryDns(name, "A", env);
  if (r.status === "NXDOMAIN" || r.status === "NODATA") return { status: "not_listed", returnCodes: [], detail: null };
  if (r.status !== "NOERROR") {
    const why = r.attempts.map((a) => `${a.server} ${a.outcome}`).join(", ");
    return {
      status: "unavailable",
      returnCodes: [],
      detail: `No usable answer (${r.status}${why ? `: ${why}` : ""}).`,
    };
  }
  const verdicts = r.records
    .filter((x) => x.type === "A")
    .map((x) => ({ code: x.value, ...interpretCode(info, x.value) }));
  const returnCodes = verdicts.map((v) => ({ code: v.code, meaning: v.meaning }));
  const refused = verdicts.find((v) => v.kind === "refused");
  if (refused) return { status: "refused", returnCodes, detail: refused.meaning };
  const invalid = verdicts.find((v) => v.kind === "invalid");
  if (invalid) return { status: "unavailable", returnCodes, detail: invalid.meaning };
  const txt = await queryDns(name, "TXT", { ...env, timeoutMs: Math.min(env.timeoutMs, 1000) });
  const text = txt.records
    .filter((x) => x.type === "TXT")
    .map((x) => (x.data && "strings" in x.data ? x.data.strings.join("") : x.value));
  return { status: "listed", returnCodes, detail: text.length ? text.join(" | ") : null };
}

async function queryZone(zone: string, names: string[], env: QueryEnv): Promise<ListResult> {
  const info = zoneInfo(zone);
  const started = Date.now();
  const queried = names.map((n) => `${n}.${zone}`);
  const outcomes = await Promise.all(queried.map((q) => queryName(zone, q, env)));
  const best = outcomes.reduce((a, b) => (RANK[b.status] > RANK[a.status] ? b : a));
  return {
    zone,
    operator: info?.operator ?? null,
    status: best.status,
    returnCodes: best.returnCodes,
    detail: best.detail,
    queried,
    website: info?.website ?? null,
    durationMs: Date.now() - started,
  };
}

export async function checkTarget(
  target: Target,
  env: QueryEnv = { servers: dnsblServers(), timeoutMs: dnsblTimeoutMs() },
): Promise<TargetResult> {
  const zones = target.kind === "domain" ? domainZones() : ipZones();
  const skipped: TargetResult["skipped"] = [];
  // A special-use name (foo.internal, nas.home.arpa) has no public registration, so no public list can hold it; asking
  // the lists would hand an operator's internal host names to every list's operator. Each list is skipped, saying why.
  const special = target.kind === "domain" ? specialUseNameReason(target.value) : null;
  const applicable = zones.filter((z) => {
    if (special) {
      skipped.push({ zone: z, reason: `${special}: no public list can hold it, so it was sent to no list.` });
      return false;
    }
    const info = zoneInfo(z);
    if (target.kind === "ipv6" && info && !info.ipv6) {
      skipped.push({ zone: z, reason: `${info.operator} does not list IPv6 addresses in this zone.` });
      return false;
    }
    return true;
  });
  const lists = await Promise.all(applicable.map((z) => queryZone(z, target.queryPrefixes, env)));
  const listedOn = lists.filter((l) => l.status === "listed").map((l) => l.zone);
  const complete = lists.every((l) => l.status === "listed" || l.status === "not_listed");
  return {
    target: target.input,
    kind: target.kind,
    normalized: target.value,
    status: listedOn.length ? "listed" : complete ? "not_listed" : "incomplete",
    listedOn,
    lists,
    skipped,
  };
}

export function blocklistSources(servers: DnsServer[]) {
  return { resolver: { servers: servers.map((s) => s.label) }, ipZones: ipZones(), domainZones: domainZones() };
}

/** The API schema validates targets before any unit is reserved; direct callers get INVALID_REQUEST. */
export async function checkBlocklists(rawTargets: string[]): Promise<BlocklistCheckResult> {
  const env = { servers: dnsblServers(), timeoutMs: dnsblTimeoutMs() };
  const targets = rawTargets.map((t) => {
    const p = parseTarget(t);
    if ("error" in p) throw new AppError("INVALID_REQUEST", p.error);
    return p;
  });
  const results = await Promise.all(targets.map((t) => checkTarget(t, env)));
  return {
    results,
    summary: {
      targets: results.length,
      listed: results.filter((r) => r.status === "listed").length,
      incomplete: results.filter((r) => r.status === "incomplete").length,
    },
    sources: blocklistSources(env.servers),
    checkedAt: new Date().toISOString(),
  };
}
