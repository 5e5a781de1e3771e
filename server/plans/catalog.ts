// Plans exactly as the spec's "Plans and allowances" table, with the key limits and history windows of DESIGN.md.
export const PLAN_SLUGS = [
  "free",
  "email",
  "suite_starter",
  "suite_business",
  "lookups_developer",
  "suite_agency",
  "lookups_growth",
] as const;
export type PlanSlug = (typeof PLAN_SLUGS)[number];

export type Capability = "full" | "geolocation" | "vulnerabilities";

export interface Plan {
  slug: PlanSlug;
  name: string;
  monthlyUnits: number;
  capabilities: readonly Capability[];
  bulk: boolean;
  webhooks: boolean;
  apiKeys: number;
  historyDays: number;
  /** Included members (owners count). */
  members: number;
  /** Sender slots: domains or addresses whose email posture is monitored. */
  senders: number;
}

const BASIC: readonly Capability[] = ["geolocation", "vulnerabilities"];
const FULL: readonly Capability[] = ["full", "geolocation", "vulnerabilities"];

export const PLANS: Record<PlanSlug, Plan> = {
  free: {
    slug: "free",
    name: "Free",
    monthlyUnits: 1_000,
    capabilities: BASIC,
    bulk: false,
    webhooks: false,
    apiKeys: 1,
    historyDays: 0,
    members: 1,
    senders: 0,
  },
  email: {
    slug: "email",
    name: "Paid Email subscription",
    monthlyUnits: 1_000,
    capabilities: BASIC,
    bulk: false,
    webhooks: false,
    apiKeys: 1,
    historyDays: 7,
    members: 1,
    senders: 3,
  },
  suite_starter: {
    slug: "suite_starter",
    name: "Suite Starter",
    monthlyUnits: 1_000,
    capabilities: FULL,
    bulk: false,
    webhooks: false,
    apiKeys: 3,
    historyDays: 30,
    members: 3,
    senders: 1,
  },
  suite_business: {
    slug: "suite_business",
    name: "Suite Business",
    monthlyUnits: 25_000,
    capabilities: FULL,
    bulk: true,
    webhooks: false,
    apiKeys: 10,
    historyDays: 90,
    members: 10,
    senders: 5,
  },
  lookups_developer: {
    slug: "lookups_developer",
    name: "Lookups Developer",
    monthlyUnits: 25_000,
    capabilities: FULL,
    bulk: false,
    webhooks: false,
    apiKeys: 10,
    historyDays: 90,
    members: 3,
    senders: 1,
  },
  suite_agency: {
    slug: "suite_agency",
    name: "Suite Agency",
    monthlyUnits: 250_000,
    capabilities: FULL,
    bulk: true,
    webhooks: true,
    apiKeys: 50,
    historyDays: 365,
    members: 25,
    senders: 25,
  },
  lookups_growth: {
    slug: "lookups_growth",
    name: "Lookups Growth",
    monthlyUnits: 250_000,
    capabilities: FULL,
    bulk: true,
    webhooks: true,
    apiKeys: 50,
    historyDays: 365,
    members: 25,
    senders: 25,
  },
};

export function isPlanSlug(s: string): s is PlanSlug {
  return (PLAN_SLUGS as readonly string[]).includes(s);
}

export interface Entitlements {
  plans: PlanSlug[];
  monthlyUnits: number;
  capabilities: Capability[];
  bulk: boolean;
  webhooks: boolean;
  apiKeys: number;
  historyDays: number;
  members: number;
  senders: number;
}

/**
 * Combines the active subscriptions of a workspace: allowance, key limit, history window, included
 * members and sender slots take the highest
 * figure (never the sum; spec: "combine by the highest allowance, never by addition"); capabilities, bulk and
 * webhooks are the union. A workspace with no active subscription is treated as Free.
 */
export function entitlementsFor(plans: readonly string[]): Entitlements {
  // Free is what a workspace has without a paid plan; beside a paid plan it adds nothing and is not listed.
  const valid = [...new Set(plans.filter(isPlanSlug))];
  const held = valid.some((p) => p !== "free") ? valid.filter((p) => p !== "free") : valid;
  const effective = held.length ? held.map((p) => PLANS[p]) : [PLANS.free];
  return {
    plans: held.length ? held : ["free"],
    monthlyUnits: Math.max(...effective.map((p) => p.monthlyUnits)),
    capabilities: [...new Set(effective.flatMap((p) => p.capabilities))],
    bulk: effective.some((p) => p.bulk),
    webhooks: effective.some((p) => p.webhooks),
    apiKeys: Math.max(...effective.map((p) => p.apiKeys)),
    historyDays: Math.max(...effective.map((p) => p.historyDays)),
    members: Math.max(...effective.map((p) => p.members)),
    senders: Math.max(...effective.map((p) => p.senders)),
  };
}
