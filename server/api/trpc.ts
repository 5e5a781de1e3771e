// The tRPC setup in one file, in numbered sections, like create-t3-app: (1) initialisation, (2) the procedure
// builders public -> authenticated -> owner / metered. Each builder says what it guarantees to the code below it;
// the steps themselves are the one admission ladder's (server/api/ladder.ts), which the REST door calls too.
import { initTRPC, TRPCError } from "@trpc/server";
import type { z } from "zod";
import { SIGN_IN_FIRST } from "../auth/principal";
import { AppError, ERROR_STATUS, toErrorBody, withStackFor, type ErrorCode } from "../errors";
import type { Capability } from "../plans/catalog";
import { applyCharging, givenBackOf as chargedGivenBack, type GivenBack } from "./charging";
import type { Context } from "./context";
import type { Meta } from "./meta";
import type { Requirement } from "./contract";
import type { Caller } from "./contract-text";
import type { FreeTextPaths } from "./input-screen";
import { declareRouterInputs } from "./input-fields";
import { applyOutputValidation } from "./output-validation";
import { decisionsOf, decisionSentences, type DecidedFields } from "./input-decisions";
import {
  admitCaller,
  chargeAndRun,
  enforceRateLimit,
  validateInput,
  type ChargedSteps,
  type MeteredSteps,
  type RateLimit,
} from "./ladder";

export { INVALID_INPUT_MARKER, giveBack, noteOutcome, rememberCharged, type RateLimit } from "./ladder";

// 1. Initialisation ---------------------------------------------------------------------------------------------

/** Procedure metadata in its four typed parts (server/api/meta.ts). */
export type { Meta, RawBodyMedia } from "./meta";

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
  // Answers parsed once more by their output schema only when SERVICE_OUTPUT_VALIDATION asks (output-validation.ts).
  applyOutputValidation(built._def.procedures as Record<string, unknown>);
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
  // As AppError: no stack for a refusal below 500 (it is an answer; the cause keeps whatever it has).
  return withStackFor(
    err.status,
    () =>
      new TRPCError({
        code: TRPC_CODE_FOR_STATUS[ERROR_STATUS[err.appCode]] ?? "INTERNAL_SERVER_ERROR",
        message: err.message,
        cause: err,
      }),
  );
}

/**
 * Runs a step of the ladder and hands a refusal it throws to tRPC already as its error (asTRPCError): tRPC wraps any
 * other thrown value in a new TRPCError of its own, capturing a stack and copying the cause's, for every refusal.
 */
function refusing<T>(step: () => Promise<T>): Promise<T> {
  // One promise for the step's outcome (an async function with an await makes more, each a cost on the hot path).
  const rethrow = (err: unknown): never => {
    throw asTRPCError(err);
  };
  try {
    return step().then(undefined, rethrow);
  } catch (err) {
    return Promise.reject(asTRPCError(err));
  }
}

/** Every procedure starts here: domain errors thrown below are mapped to their status (see asTRPCError). */
const base = t.procedure.use(async ({ next }) => {
  const result = await next();
  const cause = result.ok ? null : result.error.cause;
  // A refusal already handed over as its own error (refusing) keeps it; anything else thrown as AppError is mapped.
  if (!result.ok && cause instanceof AppError && result.error.code !== TRPC_CODE_FOR_STATUS[cause.status])
    return { ...result, error: asTRPCError(cause) as TRPCError };
  return result;
});

// 2. Procedures -------------------------------------------------------------------------------------------------

/**
 * Step 5 of the ladder (server/api/ladder.ts validateInput), on both ways in: 400 for input the REST API could not
 * read (bad JSON, wrong content type, bad percent-encoding), input holding a NUL anywhere, a lone surrogate or a
 * control character in an identifier, and a top-level field the procedure does not declare. `authenticated` runs it
 * after the declared plan requirement, as the spec orders it, and always before any unit is reserved; procedures
 * without a principal (session, optional key) use it directly.
 */
export const rejectUnreadableInput = t.middleware(async ({ ctx, next, getRawInput, meta, path }) => {
  const raw = await getRawInput().catch(() => undefined);
  try {
    validateInput(raw, { procedure: path, freeText: meta?.freeText, neverSent: meta?.neverSent, via: ctx.via }, meta);
  } catch (err) {
    throw asTRPCError(err);
  }
  return next();
});

/**
 * Anyone may call (optional-key routes resolve the key themselves); unreadable or unclean input is already refused
 * (400), so no procedure built on it can forget the check. The input is screened before an optional key is looked
 * at: a request with both a bad key and bad input gets the 400.
 */
export const publicProcedure = base.use(rejectUnreadableInput);

/**
 * The caller is a workspace principal: an active API key (REST), or a signed-in member of the selected workspace
 * (dashboard), that meets the procedure's declared `requires` (plan capability, webhooks, bulk); then unreadable
 * or unclean input is refused (400). The order is the spec's, and no procedure can leave a step out: every plan
 * check is a declaration read here, never a middleware of its own (an unmetered procedure's burst limit is the one
 * step it adds itself, `withinBurstLimit` after its input, held to that by a test). `ctx.principal.workspaceId` is the only
 * workspace any query below may touch. Steps 1 to 4 of the ladder (server/api/ladder.ts admitCaller), then step 5.
 */
export const authenticated = base
  .use(({ ctx, next, meta, getRawInput, path }) =>
    refusing(() =>
      admitCaller(
        ctx,
        { procedure: path, requires: meta?.requires, metered: Boolean(meta?.metered), rawInput: getRawInput },
        (principal) => next({ ctx: { principal } }),
      ),
    ),
  )
  .use(rejectUnreadableInput);

/**
 * Step 6 for a procedure built on `authenticated` that is not metered and declares a burst limit (`meta.rateLimit`):
 * `.use(withinBurstLimit)` after its `.input()`, so the input's schema has refused what it refuses (400) before the
 * limit counts the request, as the ladder orders it (a metered lookup's limit is in chargeAndRun, after its schema
 * too). Checked before its input's schema, a backtest with a typo spent one of the workspace's ten a minute and
 * ten typos made the next good request 429. test/foundation/burst-limit-order.test.ts holds every declaring
 * procedure to it.
 */
export const withinBurstLimit = t.middleware(async ({ ctx, meta, next }) => {
  const principal = (ctx as Context & { principal?: { workspaceId: string } }).principal;
  if (meta?.rateLimit && !meta.metered) {
    // A limit is per workspace: a procedure not built on `authenticated` has none to count against.
    if (!principal) throw new Error("withinBurstLimit needs a procedure built on authenticated");
    await refusing(() => enforceRateLimit(meta.rateLimit!, principal.workspaceId));
  }
  return next();
});

/**
 * Whether a procedure's first step after mapping errors is the ladder's admission of the caller (built on
 * `authenticated`): nothing runs before its key is judged, so a refusal that needs no read (no key, a forbidden
 * origin: server/keys/publishable.ts restKeyRefusal) may be answered without calling it (the REST door does).
 */
export function admitsCallerFirst(procedure: unknown): boolean {
  const middlewares = middlewaresOf(procedure);
  return middlewares[0] === ADMISSION[0] && middlewares[1] === ADMISSION[1];
}

const middlewaresOf = (procedure: unknown) =>
  (procedure as { _def?: { middlewares?: unknown[] } })._def?.middlewares ?? [];
/** `authenticated`'s first two steps, which every procedure built on it shares (tRPC keeps each step's function). */
const ADMISSION = middlewaresOf(authenticated).slice(0, 2);

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
    if (!ctx.sessionUser) throw new AppError("UNAUTHORIZED", SIGN_IN_FIRST);
    return next({ ctx: { sessionUser: ctx.sessionUser } });
  })
  .use(rejectUnreadableInput);

export interface MeteredOptions<I extends z.ZodType> {
  capability: Capability;
  /** Name recorded in the ledger and history, e.g. "ip.geo". */
  endpoint: string;
  input: I;
  /** True when this request needs the bulk entitlement; runs on the raw input, before validation (spec order). */
  needsBulk?: (rawInput: unknown) => boolean;
  /** needsBulk's refusal in the route's words (./contract.ts Requirement.bulkWords). */
  bulkWords?: { needs: string; instead: string };
  /** Endpoint burst limit per workspace: over it, 429 RATE_LIMITED with Retry-After and no unit consumed. */
  rateLimit?: RateLimit;
  /** Checks that need I/O but must still cost nothing when they fail (e.g. the SSRF guard). */
  preflight?: (input: z.output<I>) => Promise<void>;
  /**
   * Answers decided from the request alone (a private address, a special-use name: input-decisions.ts), given before
   * the preflight (no resolver is asked about a special-use name) and before admission, free; the description lists them. Whatever needs a provider counts.
   */
  decides?: DecidedFields<z.output<I>>;
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
  /**
   * A read the reservation's statement carries (one round trip for both; the assessment's velocity counts), and
   * what the resolver then finds as `ctx.alongside`, on every door alike (server/api/ladder.ts chargeAndRun). Absent
   * when the read was not carried: the resolver reads for itself.
   */
  readAlongside?: MeteredSteps<z.output<I>>["readAlongside"];
}

export type { GivenBack };

/** What a metered lookup's caller must meet: its capability, the bulk entitlement when it asks for it, lookups. */
export function meteredRequirement<I extends z.ZodType>(opts: MeteredOptions<I>): Requirement {
  return {
    capability: opts.capability,
    // Declared always, it is the rule whatever `needsBulk` says: the docs read `bulk` (./contract-text.ts).
    bulk: opts.bulk === "always" ? "always" : opts.needsBulk,
    ...(opts.bulkWords ? { bulkWords: opts.bulkWords } : {}),
    lookup: true,
  };
}

/**
 * A metered lookup. Guarantees, in the spec's order: authenticated principal -> key status -> capability (403
 * CAPABILITY_REQUIRED) -> bulk entitlement (403 BULK_LOOKUPS_REQUIRED) -> input validation (400) -> burst limit
 * (429) -> preflight checks -> atomic reservation of all units (402 QUOTA_EXCEEDED) -> the resolver -> what it
 * could not answer given back -> history: the ladder's steps (server/api/ladder.ts), its units and cost from the
 * charging table (server/api/charging.ts). Nothing before the reservation consumes a unit.
 */
export function meteredProcedure<I extends z.ZodType>(opts: MeteredOptions<I>) {
  const requires = meteredRequirement(opts);
  return authenticated
    .meta({
      metered: {
        capability: opts.capability,
        endpoint: opts.endpoint,
        // What it costs, in words and units, is the charging table's (server/api/charging.ts, applyCharging).
        cost: "1 unit",
        bulk: opts.bulk ?? (opts.needsBulk ? "multiple-targets" : "never"),
        rateLimited: Boolean(opts.rateLimit),
        free: opts.decides ? decisionSentences(decisionsOf(opts.decides)) : undefined,
        decided: opts.decides ? decisionsOf(opts.decides).map((d) => d.code) : undefined,
      },
      rateLimit: opts.rateLimit,
      // A member beyond the plan's included members stays listed but runs no lookups (workspace-selection.ts).
      requires,
    })
    .input(opts.input)
    .use(({ ctx, next, input, getRawInput, path }) =>
      refusing(() =>
        chargeAndRun(
          ctx,
          opts,
          { procedure: path, typed: input as z.output<I>, principal: ctx.principal, requires, rawInput: getRawInput },
          ({ units, quota, principal, alongside }) => next({ ctx: { units, quota, principal, alongside } }),
        ),
      ),
    );
}

/** The part of a metered procedure's options that its charge and history need. */
export type ChargedOptions<I extends z.ZodType> = ChargedSteps<z.output<I>>;

/** What an admitted request gives back: the charging module's rule (server/api/charging.ts givenBackOf). */
export function givenBackOf<I extends z.ZodType>(
  opts: ChargedOptions<I>,
  typed: z.output<I>,
  result: { ok: boolean; data?: unknown; error?: unknown },
  units: number,
): GivenBack | null {
  return chargedGivenBack(opts, typed, result, units);
}
