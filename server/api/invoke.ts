// Calls a procedure the way tRPC's own caller does (createProcedureCaller in @trpc/server): every middleware of its
// `_def.middlewares`, in order, each with the call's options, its meta and input, and a `next` that runs the rest
// with the context it adds merged in; a thrown value becomes the failed result tRPC makes of it; the answer is the
// last middleware's (the resolver's) data, a failed result is thrown. The one difference is the cost: tRPC's
// published build copies the options and the context at every level with a compiled object-spread helper that
// defines each property one by one, which a profile of a metered lookup on the REST door put at a fifth of its CPU;
// here they are native spreads. The REST door (server/api/rest/plain-door.ts) calls procedures through it;
// test/foundation/invoke.test.ts holds it to tRPC's caller for answers, errors, context and input.
import { TRPCError } from "@trpc/server";

type Result = { ok: true; data: unknown; ctx?: unknown; marker?: string } | { ok: false; error: TRPCError };
type NextOpts = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> };
interface CallOpts {
  path: string;
  type: string;
  ctx: object;
  input?: unknown;
  getRawInput: () => Promise<unknown>;
  signal: AbortSignal | undefined;
  batchIndex: number;
}
type Middleware = (opts: CallOpts & { meta: unknown; next: (o?: NextOpts) => Promise<Result> }) => Promise<Result>;
interface ProcedureDef {
  middlewares: Middleware[];
  meta?: unknown;
}

/** What tRPC makes of anything thrown in a middleware (its getTRPCErrorFromUnknown). */
function asFailure(cause: unknown): Result {
  if (cause instanceof TRPCError || (cause instanceof Error && cause.name === "TRPCError"))
    return { ok: false, error: cause as TRPCError };
  const error = new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause });
  if (cause instanceof Error && cause.stack) error.stack = cause.stack;
  return { ok: false, error };
}

// The options are written out field by field rather than spread, so every level's object has the same shape.
// Not an async function: one promise per level (the middleware's, with its rejection turned into a failed result)
// where an async function with an await makes two or three, each seen by every AsyncLocalStorage of the process.
function callFrom(index: number, def: ProcedureDef, opts: CallOpts): Promise<Result> {
  try {
    const middleware = def.middlewares[index]!;
    return Promise.resolve(
      middleware({
        path: opts.path,
        type: opts.type,
        ctx: opts.ctx,
        input: opts.input,
        getRawInput: opts.getRawInput,
        signal: opts.signal,
        batchIndex: opts.batchIndex,
        meta: def.meta,
        next: (nextOpts?: NextOpts) =>
          callFrom(index + 1, def, {
            path: opts.path,
            type: opts.type,
            ctx: nextOpts?.ctx ? { ...opts.ctx, ...nextOpts.ctx } : opts.ctx,
            input: nextOpts && "input" in nextOpts ? nextOpts.input : opts.input,
            getRawInput: nextOpts?.getRawInput ?? opts.getRawInput,
            signal: opts.signal,
            batchIndex: opts.batchIndex,
          }),
      }),
    ).then(undefined, asFailure);
  } catch (cause) {
    return Promise.resolve(asFailure(cause));
  }
}

/** Calls `procedure` (a router's `_def.procedures[path]`) with these options; its data, or throws its error. */
export async function invokeProcedure(procedure: unknown, opts: Omit<CallOpts, "input">): Promise<unknown> {
  const def = (procedure as { _def: ProcedureDef })._def;
  const result = await callFrom(0, def, opts as CallOpts);
  if (!result) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "No result from the middlewares." });
  if (!result.ok) throw result.error;
  return result.data;
}
