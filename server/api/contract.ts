// What a procedure requires of its caller and which error codes it can answer, declared once in its meta and read
// by the ladder (server/api/trpc.ts), the OpenAPI document (rest/openapi.ts) and the security table's tests.
// Plan names always come from the plan catalog, never from hand-typed prose.
import { AppError, ERROR_STATUS, type ErrorCode } from "../errors";
import type { Capability, Entitlements } from "../plans/catalog";
import type { Principal } from "./context";
import { BULK_PLANS, describePlans, orList, plansForCapability, WEBHOOK_PLANS } from "./contract-text";

// The plan sentences live in contract-text.ts (client-safe); re-exported for the modules that read them here.
export { BULK_PLANS, describePlans, plansForCapability, WEBHOOK_PLANS };

/** Checked right after authentication, before the input is read (spec order: key, plan, then input). */
export interface Requirement {
  /** A plan capability (403 CAPABILITY_REQUIRED). */
  capability?: Capability;
  /** The webhooks entitlement (403 CAPABILITY_REQUIRED). */
  webhooks?: true;
  /**
   * The bulk entitlement (403 BULK_LOOKUPS_REQUIRED): `always` whatever the input (jobs, a range check: the refusal
   * does not suggest sending one target), or when this returns true for the raw input (more than one target). The
   * docs read the same rule (./contract-text.ts bulkRuleOf).
   */
  bulk?: "always" | ((rawInput: unknown) => boolean);
  /**
   * The multiple-target refusal in the route's words: what needs bulk lookups and what a caller may send instead
   * (a lockfile scan: "scan a file of more than one package", "scan a file of one package"); default "submit one
   * target".
   */
  bulkWords?: { needs: string; instead: string };
  /** A metered lookup: a dashboard member beyond the plan's included members is refused (403 FORBIDDEN). */
  lookup?: true;
  /** Who is refused in the message, e.g. "Webhooks need" (default "This endpoint needs"). */
  subject?: string;
}

export interface ContractMeta {
  requires?: Requirement;
  /** Codes this procedure's own work can answer beyond the ladder's (e.g. NOT_FOUND, CONFLICT, RATE_LIMITED). */
  errors?: readonly ErrorCode[];
  metered?: { rateLimited?: boolean; decided?: readonly ErrorCode[] };
  /** A declared per-workspace burst limit (server/api/trpc.ts `RateLimit`): the procedure can answer 429. */
  rateLimit?: unknown;
  openapi?: { protect?: boolean };
}

/** The plan sentence of a requirement, for descriptions and refusals ("a Suite or Lookups plan"). */
export function requirementPlans(req: Requirement): string | null {
  if (req.webhooks) return describePlans(WEBHOOK_PLANS());
  if (req.capability && req.capability !== "geolocation" && req.capability !== "vulnerabilities")
    return describePlans(plansForCapability(req.capability));
  return null;
}

function hasCapability(e: Entitlements, req: Requirement): boolean {
  if (req.capability && !e.capabilities.includes(req.capability)) return false;
  if (req.webhooks && !e.webhooks) return false;
  return true;
}

/** The refusal a caller gets for not meeting the requirement, or null when it is met. */
export async function requirementRefusal(
  req: Requirement,
  principal: Principal,
  rawInput: () => Promise<unknown>,
): Promise<AppError | null> {
  if (req.lookup && principal.kind === "member" && principal.lookupsBlocked)
    return new AppError("FORBIDDEN", principal.lookupsBlocked);
  if (!hasCapability(principal.entitlements, req)) {
    const plans = requirementPlans(req);
    const subject = req.subject ?? "This endpoint needs";
    return new AppError(
      "CAPABILITY_REQUIRED",
      plans ? `${subject} ${plans}.` : `${subject} the ${req.capability} capability.`,
    );
  }
  if (
    req.bulk &&
    !principal.entitlements.bulk &&
    (req.bulk === "always" || req.bulk(await rawInput().catch(() => undefined)))
  ) {
    const plans = orList(BULK_PLANS().map((p) => p.name));
    return new AppError(
      "BULK_LOOKUPS_REQUIRED",
      req.bulk === "always"
        ? `${req.subject ?? "This endpoint needs"} bulk lookups (${plans}); change the plan to use it.`
        : `This request needs bulk lookups (${plans})${req.bulkWords ? ` to ${req.bulkWords.needs}` : ""}; ${
            req.bulkWords?.instead ?? "submit one target"
          } or change the plan.`,
    );
  }
  return null;
}

/** Every code a procedure can answer: the ladder's (from its requirement and metering) and its own. */
export function errorCodesOf(meta: ContractMeta): ErrorCode[] {
  const codes = new Set<ErrorCode>(["INVALID_REQUEST", "LOOKUP_NOT_FOUND", "ORIGIN_FORBIDDEN", "INTERNAL_ERROR"]);
  codes.add("UNAUTHORIZED");
  codes.add("API_KEY_PAUSED");
  const req = meta.requires;
  if (req?.capability || req?.webhooks || meta.metered) codes.add("CAPABILITY_REQUIRED");
  if (req?.bulk) codes.add("BULK_LOOKUPS_REQUIRED");
  if (meta.metered) {
    codes.add("QUOTA_EXCEEDED");
    codes.add("UPSTREAM_UNAVAILABLE");
    if (meta.metered.rateLimited) codes.add("RATE_LIMITED");
    // The free answers decided from the request (input-decisions.ts): declared by the decision itself.
    for (const c of meta.metered.decided ?? []) codes.add(c);
  }
  if (meta.rateLimit) codes.add("RATE_LIMITED");
  for (const c of meta.errors ?? []) codes.add(c);
  return [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b));
}
