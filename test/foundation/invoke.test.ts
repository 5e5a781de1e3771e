// The REST door calls procedures through server/api/invoke.ts instead of tRPC's own caller: the same middlewares, in
// the same order, with the same options, context, input and meta, and the same answer or error. Compared here with
// tRPC's caller (the procedure called as a function) on procedures that use every part of it.
import { initTRPC, TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invokeProcedure } from "../../server/api/invoke";
import { appRouter } from "../../server/api/root";

type Ctx = { seen: string[]; user?: string; extra?: number };
const t = initTRPC.context<Ctx>().meta<{ label: string }>().create();

const traced = t.procedure
  .meta({ label: "traced" })
  .use(async ({ ctx, next, meta, path, type }) => {
    ctx.seen.push(`outer ${meta?.label} ${path} ${type}`);
    const result = await next({ ctx: { user: "ann" } });
    ctx.seen.push(`outer saw ${result.ok ? "ok" : "error"}`);
    return result;
  })
  .use(async ({ ctx, next }) => next({ ctx: { extra: (ctx.user?.length ?? 0) + 1 } }));

const procedures = {
  echo: traced
    .input(z.object({ n: z.coerce.number(), tag: z.string().default("none") }))
    .output(z.object({ n: z.number(), tag: z.string(), user: z.string(), extra: z.number() }))
    .query(({ ctx, input }) => ({ ...input, user: ctx.user!, extra: ctx.extra!, dropped: true }) as never),
  refusesWithTrpc: traced.query(() => {
    throw new TRPCError({ code: "FORBIDDEN", message: "no" });
  }),
  throwsPlain: traced.mutation(() => {
    throw new Error("boom");
  }),
  badInput: traced.input(z.object({ n: z.number() })).query(({ input }) => input.n),
  rawInput: traced
    .use(async ({ next, getRawInput }) => next({ getRawInput: async () => ({ wrapped: await getRawInput() }) }))
    .input(z.object({ wrapped: z.object({ a: z.number() }) }))
    .query(({ input }) => input),
};
const router = t.router(procedures);

async function both(path: keyof typeof procedures, raw: unknown, type = "query") {
  const outcome = async (call: () => Promise<unknown>) => {
    const ctx: Ctx = { seen: [] };
    try {
      const data = await call.call(ctx);
      return { ok: true, data, seen: ctx.seen };
    } catch (err) {
      const e = err as TRPCError;
      return { ok: false, name: e.name, code: e.code, message: e.message, cause: String(e.cause), seen: ctx.seen };
    }
  };
  const proc = router._def.procedures[path] as unknown as (o: unknown) => Promise<unknown>;
  const opts = (ctx: Ctx) => ({
    path,
    type,
    ctx,
    getRawInput: async () => raw,
    signal: undefined,
    batchIndex: 0,
  });
  const viaTrpc = await (async () => {
    const ctx: Ctx = { seen: [] };
    return outcome.call(null, async () => proc(opts(ctx))).then((o) => ({ ...o, seen: ctx.seen }));
  })();
  const viaInvoke = await (async () => {
    const ctx: Ctx = { seen: [] };
    return outcome.call(null, async () => invokeProcedure(proc, opts(ctx))).then((o) => ({ ...o, seen: ctx.seen }));
  })();
  return { viaTrpc, viaInvoke };
}

describe("invokeProcedure calls a procedure as tRPC's caller does", () => {
  it.each([
    ["echo", { n: "41" }, "query"],
    ["echo", { n: 3, tag: "x" }, "query"],
    ["refusesWithTrpc", undefined, "query"],
    ["throwsPlain", undefined, "mutation"],
    ["badInput", { n: "not a number" }, "query"],
    ["rawInput", { a: 1 }, "query"],
  ] as const)("%s with %j", async (path, raw, type) => {
    const { viaTrpc, viaInvoke } = await both(path, raw, type);
    expect(viaInvoke).toEqual(viaTrpc);
    // Every middleware ran, the outer one saw the result, and the context the inner ones added reached the resolver.
    expect(viaInvoke.seen).toEqual([`outer traced ${path} ${type}`, `outer saw ${viaTrpc.ok ? "ok" : "error"}`]);
  });

  it("the output schema still parses the answer (the field the schema lacks is stripped when validation is on)", async () => {
    process.env.SERVICE_OUTPUT_VALIDATION = "on";
    try {
      const { viaTrpc, viaInvoke } = await both("echo", { n: 1 });
      expect(viaInvoke).toEqual(viaTrpc);
      expect(viaInvoke.data).toEqual({ n: 1, tag: "none", user: "ann", extra: 4 });
    } finally {
      delete process.env.SERVICE_OUTPUT_VALIDATION;
    }
  });

  it("is what the REST door uses for the service's own procedures (a refusal at admission alike)", async () => {
    const geo = appRouter._def.procedures["geo.ipGeo" as keyof typeof appRouter._def.procedures];
    expect(geo).toBeDefined();
    const ctx = {
      authenticate: async () => {
        throw new TRPCError({ code: "UNAUTHORIZED", message: "Missing API key." });
      },
      charge: { current: null },
      requestId: "req_test",
      resHeaders: new Headers(),
      requestHeaders: new Headers(),
      sessionUser: null,
      via: "api",
    };
    const opts = {
      path: "geo.ipGeo",
      type: "query",
      ctx,
      getRawInput: async () => ({ ip: "8.8.8.8" }),
      signal: undefined,
      batchIndex: 0,
    };
    const viaTrpc = await (geo as unknown as (o: unknown) => Promise<unknown>)({ ...opts, ctx: { ...ctx } }).catch(
      (e: TRPCError) => e.code,
    );
    const viaInvoke = await invokeProcedure(geo, { ...opts, ctx: { ...ctx } }).catch((e: TRPCError) => e.code);
    expect(viaInvoke).toBe("UNAUTHORIZED");
    expect(viaInvoke).toEqual(viaTrpc);
  });
});
