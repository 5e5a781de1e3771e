// The sentences a procedure's contract says about itself: who may call it, on which plans, at what cost, with
// which bulk rule and rate limit. Written from the procedure's meta and the plan catalog, never typed by hand, so
// the OpenAPI descriptions (rest/openapi.ts), the refusals (contract.ts) and the dashboard's plan notices cannot
// drift from the ladder that enforces them. Plain data in, text out: safe to import from client components.
import { PLAN_SLUGS, PLANS, type Capability, type Plan } from "../plans/catalog";

/** Every plan of the catalog, in its order; the default for the functions below (tests pass a changed copy). */
export function catalogPlans(): Plan[] {
  return PLAN_SLUGS.map((s) => PLANS[s]);
}

export function orList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

function andList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/**
 * The plans as people say them: "any plan, Free included" when every plan qualifies, whole families ("a Suite or
 * Lookups plan") when every plan of each family qualifies, otherwise the plan names ("the Suite Agency or Lookups
 * Growth plan").
 */
export function describePlans(qualifying: Plan[], catalog: Plan[] = catalogPlans()): string {
  if (qualifying.length === 0) return "no plan";
  if (catalog.every((p) => qualifying.some((q) => q.slug === p.slug))) return "any plan, Free included";
  const family = (p: Plan) => p.name.split(" ")[0]!;
  const members = (f: string) => catalog.filter((p) => family(p) === f);
  const families = [...new Set(qualifying.map(family))];
  const whole = families.every((f) => members(f).every((p) => qualifying.some((q) => q.slug === p.slug)));
  if (whole && families.every((f) => members(f).length > 1)) return `a ${orList(families)} plan`;
  return `the ${orList(qualifying.map((p) => p.name))} plan`;
}

export function plansForCapability(capability: Capability, catalog: Plan[] = catalogPlans()): Plan[] {
  return catalog.filter((p) => p.capabilities.includes(capability));
}

export const WEBHOOK_PLANS = (catalog: Plan[] = catalogPlans()): Plan[] => catalog.filter((p) => p.webhooks);
export const BULK_PLANS = (catalog: Plan[] = catalogPlans()): Plan[] => catalog.filter((p) => p.bulk);

/** The plans grouped by lookup-history window, shortest first: [days, plans][]. */
function historyGroups(catalog: Plan[]): [number, Plan[]][] {
  const by = new Map<number, Plan[]>();
  for (const p of catalog) by.set(p.historyDays, [...(by.get(p.historyDays) ?? []), p]);
  return [...by].sort(([a], [b]) => a - b);
}

/** "Free workspaces keep no lookup history. Paid Email subscription keeps 7 days, Suite Starter 30, ..." */
export function historyWindowsSentence(catalog: Plan[] = catalogPlans()): string {
  const groups = historyGroups(catalog);
  const none = groups.find(([d]) => d === 0)?.[1] ?? [];
  const kept = groups.filter(([d]) => d > 0);
  const parts = kept.map(([days, plans], i) => {
    const names = andList(plans.map((p) => p.name));
    return i === 0 ? `${names} ${plans.length > 1 ? "keep" : "keeps"} ${days} days` : `${names} ${days}`;
  });
  const first = none.length ? `${andList(none.map((p) => p.name))} workspaces keep no lookup history. ` : "";
  return `${first}${parts.join(", ")}.`;
}

/** "Free: no history; Paid Email subscription 7 days; Suite Starter 30 days; ..." (for descriptions). */
export function historyWindowsList(catalog: Plan[] = catalogPlans()): string {
  return historyGroups(catalog)
    .map(([days, plans]) => `${andList(plans.map((p) => p.name))}${days === 0 ? ": no history" : ` ${days} days`}`)
    .join("; ");
}

/**
 * Who may call a procedure, beyond what its builder implies. `workspace` (the default for authenticated
 * procedures): an active API key of the workspace, or a signed-in member in the dashboard. `key-or-owner`: an API
 * key, or a dashboard owner (a member is 403 FORBIDDEN). `key-optional` (implied by `openapi.protect: false`):
 * anyone; a key that is sent must be active.
 */
export type Caller = "workspace" | "key-or-owner" | "key-optional";

/** The part of a procedure's meta (server/api/trpc.ts `Meta`) the sentences are written from. */
export interface AccessMeta {
  metered?: {
    capability: Capability;
    cost: string;
    bulk: "never" | "multiple-targets" | "always";
    rateLimited?: boolean;
    /** Answers decided from the request alone, free ("404 NOT_FOUND for ..."; server/api/input-decisions.ts). */
    free?: string[];
  };
  /** A declared per-workspace burst limit (its presence is what the sentence needs). */
  rateLimit?: unknown;
  requires?: { capability?: Capability; webhooks?: true; bulk?: unknown };
  errors?: readonly string[];
  openapi?: { protect?: boolean };
  who?: Caller;
  /** How a procedure outside meteredProcedure charges units (bulk jobs), for the docs. */
  charges?: string;
}

export function callerOf(meta: AccessMeta): Caller {
  return meta.who ?? (meta.openapi?.protect === false ? "key-optional" : "workspace");
}

const CALLERS: Record<Caller, string> = {
  workspace: "an active API key of the workspace (or a signed-in member in the dashboard)",
  "key-or-owner":
    "an active API key of the workspace, or a workspace owner in the dashboard (a member is 403 FORBIDDEN)",
  "key-optional": "no API key needed (a key that is sent must be active)",
};

/** When bulk lookups are needed: the metered route's rule, or always for a bulk-only procedure (jobs). */
export function bulkRuleOf(meta: AccessMeta): "never" | "multiple-targets" | "always" {
  const bulk = meta.requires?.bulk;
  return meta.metered?.bulk ?? (bulk === "always" ? "always" : bulk ? "multiple-targets" : "never");
}

/** "1 unit per submitted target" -> "1 lookup unit per submitted target" (the first unit word only). */
function lookupUnits(cost: string): string {
  return cost.replace(/\b(units?)\b/, "lookup $1");
}

/**
 * Which answers of a metered lookup are free: every refusal before admission (the ladder's, the SSRF guard's and the
 * answers decided from the request alone); after admission the unit counts whatever the providers found, a "not
 * found" included, and what no provider could answer (503) is given back (server/api/trpc.ts givenBackOf).
 */
function freeSentence(meta: AccessMeta): string {
  const free = ["400 INVALID_REQUEST", "401", "402", "403"];
  if (meta.metered?.rateLimited || meta.rateLimit) free.push("429 RATE_LIMITED");
  if (meta.errors?.includes("INVALID_INPUT")) free.push("400 INVALID_INPUT");
  if (meta.errors?.includes("TARGET_FORBIDDEN")) free.push("400 TARGET_FORBIDDEN");
  for (const d of meta.metered?.free ?? []) free.push(`404 ${d}`);
  return `**Free:** ${andList(free)} are answered before admission and cost nothing. Once admitted, the unit counts whatever the sources found, a 404 (the source found nothing) included; a 503 UPSTREAM_UNAVAILABLE (no source could answer) gives its units back, so retrying it is safe.`;
}

/**
 * The access paragraph of a procedure, appended to its OpenAPI description: who may call, on which plans (from the
 * catalog), the bulk rule, the cost and the rate limit, each with the refusal it gets otherwise.
 */
export function accessSentence(meta: AccessMeta, catalog: Plan[] = catalogPlans()): string {
  const caller = callerOf(meta);
  const capability = meta.requires?.capability ?? meta.metered?.capability;
  let plans: string | null = null;
  if (meta.requires?.webhooks)
    plans = `on ${describePlans(WEBHOOK_PLANS(catalog), catalog)} (webhooks; otherwise 403 CAPABILITY_REQUIRED)`;
  else if (capability) {
    const qualifying = plansForCapability(capability, catalog);
    const all = qualifying.length === catalog.length;
    plans = `on ${describePlans(qualifying, catalog)} (capability \`${capability}\`${all ? "" : "; otherwise 403 CAPABILITY_REQUIRED"})`;
  }
  const bulk = bulkRuleOf(meta);
  const bulkPlans = describePlans(BULK_PLANS(catalog), catalog);
  // A bulk-only procedure (jobs) is on the bulk plans; a lookup with a capability says its bulk rule apart.
  const bulkOnly = bulk === "always" && !plans;
  if (bulkOnly) plans = `on ${bulkPlans} (bulk lookups; otherwise 403 BULK_LOOKUPS_REQUIRED)`;
  else if (!plans && caller !== "key-optional") plans = "on any plan";
  const out = [`**Access:** ${CALLERS[caller]}${plans ? `, ${plans}` : ""}.`];

  if (bulk !== "never" && !bulkOnly) {
    out.push(
      `${bulk === "always" ? "Needs" : "More than one target needs"} bulk lookups (${bulkPlans}; otherwise 403 BULK_LOOKUPS_REQUIRED).`,
    );
  }

  if (meta.metered) {
    out.push(`**Cost:** ${lookupUnits(meta.metered.cost)}.`);
    out.push(freeSentence(meta));
  } else if (meta.charges) out.push(`**Cost:** ${meta.charges}.`);
  else out.push("**Cost:** unmetered (no lookup units).");

  if (meta.metered?.rateLimited)
    out.push("**Rate limit:** per workspace; over it, 429 RATE_LIMITED with Retry-After and no unit consumed.");
  else if (meta.rateLimit) out.push("**Rate limit:** per workspace; over it, 429 RATE_LIMITED with Retry-After.");
  else if (meta.errors?.includes("RATE_LIMITED"))
    out.push("**Rate limit:** over it, 429 RATE_LIMITED with Retry-After.");
  return out.join(" ");
}
