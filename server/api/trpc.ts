// The tRPC setup in one file, in numbered sections, like create-t3-app: (1) initialisation, (2) the procedure
// ladder public -> authenticated -> owner / metered. Each builder says what it guarantees to the code below it.
import { initTRPC, TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { z } from "zod";
import { AppError, ERROR_STATUS, toErrorBody, type ErrorCode } from "../errors";
import type { Capability } from "../plans/catalog";
import { admitMeteredRequest, authenticateCaller, refusalAfterFailure, type Judge } from "../quota/admission";
import { quotaHeaders, type QuotaState, type ReadResult, type ReserveArgs } from "../quota/reserve";
import { refundUnits } from "../quota/adjust";
import { periodStart } from "../quota/period";
import { logger } from "../operate/log";
import { metrics, planLabel } from "../operate/metrics";
import { recordLookupHistory } from "../history/history";
import { noteRequestOutcome } from "../analytics/request-outcomes";
import { consumeRateLimit } from "../ratelimit/ratelimit";
import type { Charge, Context, Principal } from "./context";
import { requirementRefusal, type Requirement } from "./contract";
import type { Caller } from "./contract-text";
import { screenInput, type FreeTextPaths } from "./input-screen";
import { declareRouterInputs, declaredFieldsFor, unknownFieldsProblem } from "./input-fields";
import { decide, decisionsOf, decisionSentences, type DecidedFields } from "./input-decisions";
import { applyCharging, givenBackOf as chargedGivenBack, unitsOf, type GivenBack } from "./charging";

// 1. Initialisation ---------------------------------------------------------------------------------------------

/** Content types a raw-body route documents for its body (Meta `rawBody.media`). */
export type RawBodyMedia =
  | "text/plain"
  | "application/json"
  | "application/octet-stream"
  | "application/x-yaml"
  | "application/x-www-form-urlencoded";

/** Procedure metadata: trpc-to-openapi's `openapi`, plus what the pipeline and the docs need to know. */
export type Meta = OpenApiMeta & {
  metered?: {
    capability: Capability;
    endpoint: string;
    cost: string;
    bulk: "never" | "multiple-targets" | "always";
    rateLimited?: boolean;
    /** Answers decided from the request alone, before admission and free ("404 NOT_FOUND for ..."; input-decisions.ts). */
    free?: string[];
  };
  /** Who may call, when the builder allows more or less than any active key or member (contract-text.ts `Caller`). */
  who?: Caller;
  /** How a procedure outside meteredProcedure charges lookup units (bulk jobs), for the docs' cost sentence. */
  charges?: string;
  /**
   * When the REST answer is 202 Accepted instead of 200 (server/api/rest/handler.ts): `always` (a bulk job), or
   * `when-running` (a scan that outlasts its wait). The OpenAPI document documents the 202 from it.
   */
  accepted?: "always" | "when-running";
  /** Media type of a non-JSON 200 body (the procedure returns a string and sets Content-Type). */
  produces?: "text/csv";
  /**
   * Media types the 200 may also come in besides JSON, chosen by the request's Accept header: the procedure then
   * returns the rendered text as a string and sets Content-Type (the OpenAPI document lists each).
   */
  alsoProduces?: readonly ("application/sarif+json" | "text/csv")[];
  /**
   * On the REST API the request body is not JSON but the raw text of one input field (a lockfile, whatever its
   * Content-Type), read up to `maxBytes`; the other input fields come from the query (server/api/rest/handler.ts).
   * The dashboard's tRPC door sends the same field in its JSON input. `media` names the content types the document
   * lists for it (default: those of a lockfile or SBOM).
   */
  rawBody?: { field: string; maxBytes: number; media?: readonly RawBodyMedia[] };
  /**
   * REST only: a body sent with Content-Type `text/csv` is the text of this input field (a CSV file uploaded as it
   * is, other fields from the query); any other body is JSON as usual.
   */
  csvBody?: { field: string };
  /** The largest body the route reads, on both doors, when it needs more than the default 1,000,000 bytes. */
  maxBodyBytes?: number;
  /** Free-text input fields that may hold tabs and line breaks (see input-screen.ts); all others are identifiers. */
  freeText?: FreeTextPaths;
  /** What the caller needs beyond an active key or membership (contract.ts); checked by `authenticated`. */
  requires?: Requirement;
  /** Codes the procedure's own work can answer beyond the ladder's; documented from ERROR_STATUS (contract.ts). */
  errors?: readonly ErrorCode[];
  /**
   * A burst limit per workspace, declared here and enforced by the ladder: a metered lookup checks it after input
   * validation and before reserving (no unit consumed), any other procedure right after the input screen. Over it,
   * 429 RATE_LIMITED with Retry-After. The docs' rate-limit sentence and the RATE_LIMITED response come from it.
   */
  rateLimit?: RateLimit;
};

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      // The dashboard client gets the same closed set of codes as the REST API, never an internal message.
      const { body } = toErrorBody(error);
      return {
        ...shape,
        message: body.error.message,
        data: { ...shape.data, stack: undefined, appCode: body.error.code },
      };
    },
  });

/** A router, whose procedures' declared input fields the input screen learns as it is built (input-fields.ts). */
export const router = ((record: Parameters<typeof t.router>[0]) => {
  const built = t.router(record);
  declareRouterInputs(built._def.procedures as Record<string, unknown>);
  // Each procedure's cost as the charging table states it (charging.ts), for the document, /docs and the console.
  applyCharging(built._def.procedures as Record<string, unknown>);
  return built;
}) as typeof t.router;
export const createCallerFactory = t.createCallerFactory;

const TRPC_CODE_FOR_STATUS: Record<number, TRPCError["code"]> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  402: "PAYMENT_REQUIRED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_SERVER_ERROR",
  503: "SERVICE_UNAVAILABLE",
};

/**
 * A domain error (AppError, a plain Error) as the tRPC error of its status, the AppError kept as the cause so the
 * error body keeps its code, message and headers. Anything else is returned unchanged.
 */
export function asTRPCError(err: unknown): unknown {
  if (!(err instanceof AppError)) return err;
  return new TRPCError({
    code: TRPC_CODE_FOR_STATUS[ERROR_STATUS[err.appCode]] ?? "INTERNAL_SERVER_ERROR",
    message: err.message,
    cause: err,
  });
}

/** Every procedure starts here: domain errors thrown below are mapped to their status (see asTRPCError). */
const base = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError)
    return { ...result, error: asTRPCError(result.error.cause) as TRPCError };
  return result;
});

/** A per-workspace burst limit: its bucket name, how many requests per window, and what the refusal calls them. */
export interface RateLimit {
  name: string;
  limit: () => number;
  windowSeconds: () => number;
  /** What the refusal says there were too many of, e.g. "backtests" (default "<name> requests"). */
  what?: string;
}

/** Counts one request against the workspace's bucket, or refuses with 429 RATE_LIMITED and Retry-After. */
async function enforceRateLimit(rl: RateLimit, workspaceId: string): Promise<void> {
  const verdict = await consumeRateLimit({
    bucket: `${rl.name}:${workspaceId}`,
    limit: rl.limit(),
    windowSeconds: rl.windowSeconds(),
  });
  if (!verdict.allowed) {
    throw new AppError(
      "RATE_LIMITED",
      `Too many ${rl.what ?? `${rl.name} requests`}; retry in ${verdict.retryAfterSeconds} s.`,
      {
        headers: { "Retry-After": String(verdict.retryAfterSeconds) },
      },
    );
  }
}

// 2. Procedures -------------------------------------------------------------------------------------------------

/** Key under which the REST API passes a malformed body or path parameter to the point where it is refused. */
export const INVALID_INPUT_MARKER = "__serviceInvalidInput";

/**
 * Refuses with 400 input the REST API could not read (bad JSON, wrong content type, bad percent-encoding), input
 * holding a NUL anywhere, a lone surrogate or a control character in an identifier (input-screen.ts), and input
 * with a top-level field the procedure does not declare (input-fields.ts), on both ways in. `authenticated` runs it
 * after the declared plan requirement, as the spec orders it, and always before any unit is reserved; procedures
 * without a principal (session, optional key) use it directly.
 */
export const rejectUnreadableInput = t.middleware(async ({ ctx, next, getRawInput, meta, path }) => {
  const raw = await getRawInput().catch(() => undefined);
  if (raw && typeof raw === "object" && INVALID_INPUT_MARKER in raw) {
    throw new AppError("INVALID_REQUEST", String((raw as Record<string, unknown>)[INVALID_INPUT_MARKER]));
  }
  const problem = screenInput(raw, meta?.freeText);
  if (problem) throw new AppError("INVALID_REQUEST", problem);
  // The dashboard's infinite queries (tRPC's client) add `direction` beside the cursor on their own.
  const unknown = unknownFieldsProblem(raw, declaredFieldsFor(path, meta), ctx.via === "dashboard" ? DIRECTION : []);
  if (unknown) throw new AppError("INVALID_REQUEST", unknown);
  return next();
});

const DIRECTION = ["direction"] as const;

/**
 * Anyone may call (optional-key routes resolve the key themselves); unreadable or unclean input is already refused
 * (400), so no procedure built on it can forget the check. The input is screened before an optional key is looked
 * at: a request with both a bad key and bad input gets the 400.
 */
export const publicProcedure = base.use(rejectUnreadableInput);

/**
 * Counts one answer of a workspace's request for the analytics error rates (server/analytics/request-outcomes.ts),
 * once its caller is known; a bulk job's item is not a request and is not counted. `authenticated` calls it, and
 * the plain /assess door (server/api/rest/assess-door.ts) at the same points.
 */
export function noteOutcome(
  ctx: Pick<Context, "db" | "prepaid">,
  principal: Principal,
  procedure: string,
  status: number,
  code?: string,
): void {
  if (ctx.prepaid) return;
  noteRequestOutcome(ctx.db, {
    workspaceId: principal.workspaceId,
    apiKeyId: principal.kind === "api_key" ? principal.apiKeyId : null,
    procedure,
    status,
    code,
  });
}

/**
 * The caller is a workspace principal: an active API key (REST), or a signed-in member of the selected workspace
 * (dashboard), that meets the procedure's declared `requires` (plan capability, webhooks, bulk); then unreadable
 * or unclean input is refused (400). The order is the spec's, and no procedure can leave a step out: every plan
 * check is a declaration read here, never a middleware of its own. `ctx.principal.workspaceId` is the only
 * workspace any query below may touch. A metered lookup's key may come from the key cache: server/quota/admission.ts
 * holds that sequence, from this first step to the reservation that confirms the key.
 */
export const authenticated = base
  .use(async ({ ctx, next, meta, getRawInput, path }) => {
    const judge: Judge<Principal> = {
      authenticate: (read) => ctx.authenticate(read),
      refusalOf: async (p) => (meta?.requires ? requirementRefusal(meta.requires, p, getRawInput) : null),
    };
    const { principal, refusal } = await authenticateCaller(judge, {
      metered: Boolean(meta?.metered),
      prepaid: Boolean(ctx.prepaid),
    });
    // Every answer from here on belongs to the workspace: its status is counted for the analytics error rates.
    const note = (status: number, code?: string) => noteOutcome(ctx, principal, path, status, code);
    if (refusal) {
      note(refusal.status, refusal.appCode);
      throw refusal;
    }
    const result = await next({ ctx: { principal } });
    if (!result.ok) {
      // Refused or failed before its reservation confirmed a cached key: the answer a fresh read of the key gives.
      const late = await refusalAfterFailure(principal, judge);
      if (late) {
        note(late.status, late.appCode);
        throw late;
      }
    }
    // A success may be a 202 (a scan or job still running), which the entry answers from this internal header.
    if (result.ok) note(ctx.resHeaders.get("x-service-status") === "202" ? 202 : 200);
    else {
      const { status, body } = toErrorBody(result.error);
      note(status, body.error.code);
    }
    return result;
  })
  .use(rejectUnreadableInput)
  .use(async ({ ctx, meta, next }) => {
    // A metered lookup checks its limit later, after input validation, where the spec places it (meteredProcedure).
    if (meta?.rateLimit && !meta.metered) await enforceRateLimit(meta.rateLimit, ctx.principal.workspaceId);
    return next();
  });

/** The same guarantees as `authenticated` (kept as the name routers read best with). */
export const workspaceProcedure = authenticated;

/** A signed-in dashboard user with the owner role in the selected workspace: manages keys, plans and members. */
export const ownerProcedure = workspaceProcedure.use(({ ctx, next }) => {
  if (ctx.principal.kind !== "member")
    throw new AppError("FORBIDDEN", "API keys cannot administer keys, plans or members.");
  if (ctx.principal.role !== "owner") throw new AppError("FORBIDDEN", "Only workspace owners can do this.");
  return next({ ctx: { principal: ctx.principal } });
});

/** A signed-in dashboard user, workspace not required (listing and creating workspaces). */
export const sessionProcedure = base
  .use(({ ctx, next }) => {
    if (!ctx.sessionUser) throw new AppError("UNAUTHORIZED", "Sign in first.");
    return next({ ctx: { sessionUser: ctx.sessionUser } });
  })
  .use(rejectUnreadableInput);

export interface MeteredOptions<I extends z.ZodType> {
  capability: Capability;
  /** Name recorded in the ledger and history, e.g. "ip.geo". */
  endpoint: string;
  input: I;
  /**
   * Units the request costs, for a procedure whose entry in the charging table (server/api/charging.ts) does not
   * count them: the table's count wins. Default 1. Reserved atomically, all or nothing.
   */
  units?: (input: z.output<I>) => number;
  /** True when this request needs the bulk entitlement; runs on the raw input, before validation (spec order). */
  needsBulk?: (rawInput: unknown) => boolean;
  /** Endpoint burst limit per workspace: over it, 429 RATE_LIMITED with Retry-After and no unit consumed. */
  rateLimit?: RateLimit;
  /** Checks that need I/O but must still cost nothing when they fail (e.g. the SSRF guard). */
  preflight?: (input: z.output<I>) => Promise<void>;
  /**
   * Answers decided from the request alone (a private address, a special-use name: input-decisions.ts), given after
   * the preflight and before admission, free; the description lists them. Whatever needs a provider counts.
   */
  decides?: DecidedFields<z.output<I>>;
  /** How the cost is counted, for the docs and the console, when the charging table has no entry; default "1 unit". */
  cost?: string;
  /** How bulk applies, for the docs; default "never" when needsBulk is absent, else "multiple-targets". */
  bulk?: "never" | "multiple-targets" | "always";
  /** Safe summary kept in lookup history (never the raw payload). */
  history?: (input: z.output<I>, output: any) => { target: string; summary: Record<string, unknown> };
  /** The history target of a failed request, when the first plain input value is not one (a raw lockfile). */
  target?: (input: z.output<I>) => string;
  /**
   * The units of a batch's targets that its answer could not answer (no source answered for them), with the
   * reason: they are given back once the answer is ready, and its quota headers count without them. Default none.
   */
  unanswered?: (input: z.output<I>, output: any) => GivenBack | null;
}

export type { GivenBack };

/** What a metered lookup's caller must meet: its capability, the bulk entitlement when it asks for it, lookups. */
export function meteredRequirement<I extends z.ZodType>(opts: MeteredOptions<I>): Requirement {
  return { capability: opts.capability, bulk: opts.needsBulk, lookup: true };
}

/**
 * A metered lookup. Guarantees, in the spec's order: authenticated principal -> key status -> capability (403
 * CAPABILITY_REQUIRED) -> bulk entitlement (403 BULK_LOOKUPS_REQUIRED) -> input validation (400) -> burst limit
 * (429) -> preflight checks -> atomic reservation of all units (402 QUOTA_EXCEEDED) -> the resolver -> what it
 * could not answer given back -> history. Nothing before the reservation consumes a unit; after it, an answer counts
 * whatever the sources found (a "not found" included), and what was not answered is given back (givenBackOf).
 */
export function meteredProcedure<I extends z.ZodType>(opts: MeteredOptions<I>) {
  const requires = meteredRequirement(opts);
  return authenticated
    .meta({
      metered: {
        capability: opts.capability,
        endpoint: opts.endpoint,
        cost: opts.cost ?? "1 unit",
        bulk: opts.bulk ?? (opts.needsBulk ? "multiple-targets" : "never"),
        rateLimited: Boolean(opts.rateLimit),
        free: opts.decides ? decisionSentences(decisionsOf(opts.decides)) : undefined,
      },
      rateLimit: opts.rateLimit,
      // A member beyond the plan's included members stays listed but runs no lookups (workspace-selection.ts).
      requires,
    })
    .input(opts.input)
    .use(async ({ ctx, next, input, getRawInput, path }) => {
      const typed = input as z.output<I>;
      const decided = () => {
        const answer = opts.decides ? decide(decisionsOf(opts.decides), typed) : null;
        if (answer) throw answer;
      };
      if (ctx.prepaid) {
        // A bulk job item: its units were reserved atomically with the job (spec Limits rule 3). What it gives back
        // is handed to the job (or monitor run) that paid, which refunds it with its own reservation.
        if (opts.preflight) await opts.preflight(typed);
        decided();
        ctx.prepaid.admitted = true;
        const result = await next({ ctx: { units: ctx.prepaid.units, quota: null } });
        const back = givenBackOf(opts, typed, result, ctx.prepaid.units);
        if (back) ctx.prepaid.givenBack = back;
        rememberCharged(ctx, opts, typed, result, ctx.prepaid.units, ctx.principal, back);
        return result;
      }
      if (opts.rateLimit) await enforceRateLimit(opts.rateLimit, ctx.principal.workspaceId);
      if (opts.preflight) await opts.preflight(typed);
      decided();
      const units = unitsOf(path, typed, opts.units);
      const {
        principal: p,
        quota,
        charge,
      } = await admitCharged(ctx, opts, units, {
        authenticate: (read) => ctx.authenticate(read),
        refusalOf: (of) => requirementRefusal(requires, of, getRawInput),
      });
      const result = await next({ ctx: { units, quota, principal: p } });
      let back = givenBackOf(opts, typed, result, units);
      if (back && !(await giveBack(ctx, charge, back, quota))) back = null;
      rememberCharged(ctx, opts, typed, result, units, p, back);
      return result;
    });
}

/** The part of a metered procedure's options that its charge and history need. */
export type ChargedOptions<I extends z.ZodType> = Pick<
  MeteredOptions<I>,
  "capability" | "endpoint" | "history" | "target" | "unanswered"
>;

/**
 * Admission step 2 of a metered request (server/quota/admission.ts), and what follows a reservation: the charge an
 * undelivered answer gives back, the units-reserved metric, the quota headers and `Cache-Control: private,
 * no-store`. meteredProcedure calls it, and the plain /assess door (server/api/rest/assess-door.ts), whose `read`
 * (the assessment's velocity counts) runs in the reservation's statement and comes back as `quota.read`.
 */
export async function admitCharged<I extends z.ZodType>(
  ctx: Pick<Context, "db" | "requestId" | "charge"> & { principal: Principal; resHeaders: Pick<Headers, "set"> },
  opts: ChargedOptions<I>,
  units: number,
  judge: Judge<Principal>,
  read?: ReserveArgs["read"],
): Promise<{ principal: Principal; quota: QuotaState & { read?: ReadResult }; charge: Charge }> {
  const { principal, quota, reservation } = await admitMeteredRequest({
    db: ctx.db,
    principal: ctx.principal,
    units,
    requestId: ctx.requestId,
    endpoint: opts.endpoint,
    judge,
    read,
  });
  const charge: Charge = {
    workspaceId: reservation.workspaceId,
    units,
    requestId: reservation.requestId,
    endpoint: reservation.endpoint,
    apiKeyId: reservation.apiKeyId ?? null,
    userId: reservation.userId ?? null,
    reservedAt: reservation.now ?? new Date(),
  };
  if (ctx.charge) ctx.charge.current = { ...charge };
  metrics().unitsReserved.inc({ capability: opts.capability, plan: planLabel(principal.entitlements.plans) }, units);
  for (const [k, v] of Object.entries(quotaHeaders(quota))) ctx.resHeaders.set(k, v);
  ctx.resHeaders.set("Cache-Control", "private, no-store");
  return { principal, quota, charge };
}

/** What an admitted request gives back: the charging module's rule (server/api/charging.ts givenBackOf). */
export function givenBackOf<I extends z.ZodType>(
  opts: ChargedOptions<I>,
  typed: z.output<I>,
  result: { ok: boolean; data?: unknown; error?: unknown },
  units: number,
): GivenBack | null {
  return chargedGivenBack(opts, typed, result, units);
}

/**
 * Gives back what a request did not get answered, before its answer is written: a ledger row of negative units
 * with the reason, the answer's quota headers counting without them (so they agree with GET /v1/usage), and a
 * smaller charge for the refund of an answer that then cannot be delivered (server/api/rest/undelivered.ts).
 * False when the refund could not be written (the request then stays charged, as its history entry says).
 */
export async function giveBack(
  ctx: Pick<Context, "db" | "charge"> & { resHeaders: Pick<Headers, "set"> },
  charge: Charge,
  back: GivenBack,
  quota: QuotaState,
): Promise<boolean> {
  try {
    const used = await refundUnits(ctx.db, {
      workspaceId: charge.workspaceId,
      periodStart: periodStart(charge.reservedAt),
      units: back.units,
      requestId: charge.requestId,
      endpoint: charge.endpoint,
      apiKeyId: charge.apiKeyId,
      userId: charge.userId,
      reason: back.reason,
    });
    const after = { ...quota, used, remaining: Math.max(0, quota.limit - used) };
    for (const [k, v] of Object.entries(quotaHeaders(after))) ctx.resHeaders.set(k, v);
  } catch (err) {
    // The database that failed the request may fail the refund too: said in the log, with what was owed.
    logger().error(
      { err, request_id: charge.requestId, units: back.units },
      "giving back the units of an unanswered request failed",
    );
    return false;
  }
  const slot = ctx.charge;
  if (slot?.current) {
    const left = slot.current.units - back.units;
    slot.current = left > 0 ? { ...slot.current, units: left } : null;
  }
  return true;
}

/**
 * Every charged request is a history entry, when the plan keeps history: the units it was charged once what it gave
 * back is taken off, and its outcome (status code), with the route's safe summary on success; a failure keeps only
 * its target. What was given back is in the summary (`refunded_units`, `refund_reason`). So the month's entries add
 * up to the units used. Called only after the units were reserved (or prepaid with a bulk job).
 */
export function rememberCharged<I extends z.ZodType>(
  ctx: Pick<Context, "db" | "requestId"> & { resHeaders: Pick<Headers, "get"> },
  opts: ChargedOptions<I>,
  typed: z.output<I>,
  result: { ok: boolean; data?: unknown; error?: unknown },
  units: number,
  principal: Principal,
  back: GivenBack | null = null,
): void {
  const { entitlements, workspaceId } = principal;
  if (entitlements.historyDays <= 0) return;
  let entry = {
    target: opts.target ? opts.target(typed) : targetOf(typed),
    summary: {} as Record<string, unknown>,
  };
  let status = 200;
  let code: string | null = null;
  if (result.ok) {
    status = ctx.resHeaders.get("x-service-status") === "202" ? 202 : 200;
    if (opts.history) entry = opts.history(typed, result.data);
  } else {
    const { status: s, body } = toErrorBody(result.error);
    status = s;
    code = body.error.code;
  }
  if (back) entry.summary = { ...entry.summary, refunded_units: back.units, refund_reason: back.reason };
  recordLookupHistory(ctx.db, {
    workspaceId,
    requestId: ctx.requestId,
    endpoint: opts.endpoint,
    target: entry.target,
    summary: entry.summary,
    units: units - (back?.units ?? 0),
    status,
    code,
    historyDays: entitlements.historyDays,
  });
}

/** What a request was about, for a history entry without the route's summary: its first plain input value. */
function targetOf(input: unknown): string {
  if (input === null || input === undefined) return "";
  if (typeof input !== "object") return String(input);
  for (const v of Object.values(input as Record<string, unknown>)) {
    if (typeof v === "string" && v) return v;
    if (typeof v === "number") return String(v);
    if (Array.isArray(v) && v.length && typeof v[0] === "string") return v.join(", ");
  }
  return "";
}
