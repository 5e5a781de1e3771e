// The API layer's side of bulk jobs (server/bulk/procedures.ts): each line is checked against, and each item run
// through, the metered procedure of its kind, with the same input parsers, capability and ladder as a single
// request. Registered explicitly, by a call: at start (server/startup/index.ts), before the worker claims anything,
// and by each HTTP entry point (rest/handler.ts, http/dashboard.ts), since Next bundles those separately.
import { bulkProceduresProvided, provideBulkProcedures, type Capability, type Prepaid } from "../bulk/procedures";
import { KINDS, type BulkKind } from "../bulk/kinds";
import type { Principal } from "../auth/principal";
import { issueText } from "../errors";
import { newId } from "../ids";
import { JOB_CHARGING } from "./charging";
import type { Context } from "./context";
import { describePlans, plansForCapability } from "./contract";
import { reserveJobUnits } from "./ladder";
import { appRouter } from "./root";
import { createCallerFactory } from "./trpc";

type ProcedureLike = {
  _def: {
    inputs: {
      safeParseAsync(
        v: unknown,
      ): Promise<{ success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }>;
    }[];
    meta?: { metered?: { capability: string } };
  };
};

function procedureFor(kind: BulkKind): ProcedureLike {
  const p = (appRouter._def.procedures as Record<string, unknown>)[KINDS[kind].procedure];
  if (!p) throw new Error(`bulk kind ${kind}: no procedure ${KINDS[kind].procedure}`);
  return p as ProcedureLike;
}

let createCaller: ((ctx: Context) => unknown) | null = null;

/** Runs the metered procedure at `procedure` (its tRPC path) for `principal`, its units already paid (`prepaid`). */
async function runMetered(a: {
  db: Context["db"];
  procedure: string;
  input: unknown;
  principal: Principal;
  prepaid: Prepaid;
}): Promise<unknown> {
  a.prepaid.requestId = newId("req");
  const ctx: Context = {
    db: a.db,
    via: "api",
    requestId: a.prepaid.requestId,
    resHeaders: new Headers(),
    authenticate: async () => a.principal,
    sessionUser: null,
    requestHeaders: new Headers(),
    prepaid: a.prepaid,
  };
  createCaller ??= createCallerFactory(appRouter);
  const caller = createCaller(ctx) as unknown as Record<string, Record<string, (i: unknown) => Promise<unknown>>>;
  const [ns, name] = a.procedure.split(".") as [string, string];
  const call = caller[ns]?.[name];
  if (!call) throw new Error(`no procedure ${a.procedure}`);
  return call(a.input);
}

/** Hands bulk jobs and monitor runs the API layer's procedures, job reservation and charging (idempotent). */
export function registerBulkProcedures(): void {
  if (bulkProceduresProvided()) return;
  provideBulkProcedures({
    async inspect(kind, input) {
      const proc = procedureFor(kind);
      for (const parser of proc._def.inputs) {
        const r = await parser.safeParseAsync(input);
        if (!r.success) {
          // Worded as a 400 of the same input is (server/errors.ts): "domain: Invalid label ...".
          return { problem: issueText(r.error!.issues[0]!), capability: undefined };
        }
      }
      return { problem: null, capability: proc._def.meta?.metered?.capability as Capability | undefined };
    },
    plansWith: (capability) => describePlans(plansForCapability(capability)),
    run: ({ db, kind, input, principal, prepaid }) =>
      runMetered({ db, procedure: KINDS[kind].procedure, input, principal, prepaid }),
    runProcedure: runMetered,
    reserveJob: reserveJobUnits,
    charging: JOB_CHARGING,
  });
}
