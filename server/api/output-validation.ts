// Output validation behind a setting (issue 44, item 2). tRPC's `.output(schema)` parses every answer once more
// before it leaves; the procedures build their answers in their schema's shape, so in production that second pass
// only costs time. SERVICE_OUTPUT_VALIDATION chooses per call: `off` (the default) sends the answer as the procedure
// built it; `on` sends the schema's parse, as tRPC does; `strict`, what the test suite and the browser journeys run
// with, parses and refuses (500) an answer whose parse is another JSON value (a field the schema strips or lacks, a
// value it transforms; the order of an object's fields aside), so that every answer the suite sees is, field for
// field, the one `off` sends. The OpenAPI document and the generated clients still read the schema (`_def.output`),
// which stays as declared.
import { TRPCError } from "@trpc/server";
import { setting } from "../env";
import { logger } from "../operate/log";

type Result = { ok: boolean; data?: unknown };
type Middleware = ((opts: { next: (...args: unknown[]) => Promise<Result> }) => Promise<Result>) & { _type?: string };
interface ProcedureDef {
  _def?: { middlewares?: Middleware[] };
}

const WRAPPED = Symbol("outputValidation");

/** Replaces each procedure's output middleware (tRPC's `.output`) with one that follows the setting. */
export function applyOutputValidation(procedures: Record<string, unknown>): void {
  for (const [path, procedure] of Object.entries(procedures)) {
    const middlewares = (procedure as ProcedureDef)?._def?.middlewares;
    if (!middlewares) continue;
    for (let i = 0; i < middlewares.length; i++) {
      const parse = middlewares[i]!;
      if (parse._type !== "output" || (parse as { [WRAPPED]?: true })[WRAPPED]) continue;
      middlewares[i] = Object.assign(outputStep(path, parse), { _type: "output", [WRAPPED]: true as const });
    }
  }
}

function outputStep(path: string, parse: Middleware): Middleware {
  return async (opts) => {
    const mode = setting("SERVICE_OUTPUT_VALIDATION");
    if (mode === "off") return opts.next();
    let sent: Result | undefined;
    const parsed = await parse({ ...opts, next: async (...args) => (sent = await opts.next(...args)) });
    if (mode === "strict" && parsed.ok && sent?.ok && !sameJson(parsed.data, sent.data)) {
      logger().error({ procedure: path }, "answer differs from its output schema's parse");
      // Strict is a mode for tests and development: the difference goes to stderr too, where a failing test shows it.
      console.error(`[output-validation] ${path}: ${firstDifference(sent.data, parsed.data)}`);
      // The error names the procedure only: the answer may hold personal data, and this error is logged.
      throw new TRPCError({
        code: "INTERNAL_SERVER_ERROR",
        message: `The answer of ${path} differs from its output schema's parse (SERVICE_OUTPUT_VALIDATION=strict).`,
      });
    }
    return parsed;
  };
}

/**
 * Whether two answers are the same JSON value: the same fields with the same values, in whatever order the
 * fields of an object come (JSON objects are unordered; the schema's parse orders them as the schema declares).
 */
function sameJson(a: unknown, b: unknown): boolean {
  return a === b || canonicalJson(a) === canonicalJson(b);
}

/** JSON text with every object's keys sorted (undefined members left out, as JSON.stringify does). */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** Where two answers' JSON texts part, with some context either side. */
function firstDifference(a: unknown, b: unknown): string {
  const x = canonicalJson(a) ?? "undefined";
  const y = canonicalJson(b) ?? "undefined";
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  const at = Math.max(0, i - 80);
  return `sent …${x.slice(at, i + 160)}… but its schema's parse is …${y.slice(at, i + 160)}…`;
}
