// Unknown fields are refused, not dropped (issue 42, item 4). zod drops the keys an object does not declare, so a
// misspelled `emial` gave a decision without the email, invisibly, and a `payment` object carrying a card number was
// accepted and thrown away. As Stripe answers ("Received unknown parameter: emial"), every top-level key of the input
// that the procedure's input schema does not declare is 400 INVALID_REQUEST naming it, on both ways in (REST /v1,
// where the body, the query and the path parameters make the input, and the dashboard's tRPC). Only top-level keys
// are judged: an open map such as `metadata` keeps whatever keys its caller chose, and a schema that declares an
// open object (a catch-all) is not judged at all.
import type { z } from "zod";

/** The fields a procedure's input declares at its top level, or null when it takes any (or is not an object). */
export type DeclaredFields = ReadonlySet<string> | null;

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def | null => (schema as { _zod?: { def?: Def } } | null)?._zod?.def ?? null;

// Wrappers whose input is their inner schema's: optional, nullable, default, readonly, catch, ...
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "nonoptional", "readonly", "catch"]);
const MAX_UNWRAP = 16;

function fieldsOf(schema: unknown, depth = 0): DeclaredFields {
  const def = defOf(schema);
  if (!def || depth > MAX_UNWRAP) return null;
  if (def.type === "object") {
    const catchall = defOf(def.catchall);
    // A catch-all other than `never` (z.looseObject, .catchall(...)) takes any key.
    if (catchall && catchall.type !== "never") return null;
    return new Set(Object.keys(def.shape as Record<string, unknown>));
  }
  if (WRAPPERS.has(def.type)) return fieldsOf(def.innerType, depth + 1);
  // A transform or pipe reads its input with the first schema.
  if (def.type === "pipe") return fieldsOf(def.in, depth + 1);
  if (def.type === "lazy") return fieldsOf((def.getter as () => unknown)(), depth + 1);
  if (def.type === "union" || def.type === "intersection") {
    const parts = def.type === "union" ? (def.options as unknown[]) : [def.left, def.right];
    const all = new Set<string>();
    for (const part of parts) {
      const fields = fieldsOf(part, depth + 1);
      if (fields === null) return null;
      for (const f of fields) all.add(f);
    }
    return all;
  }
  return null;
}

/** The top-level fields a procedure's inputs declare (every `.input()` of it), or null to judge nothing. */
export function declaredFieldsOf(inputs: readonly unknown[]): DeclaredFields {
  if (inputs.length === 0) return null;
  const all = new Set<string>();
  for (const input of inputs) {
    const fields = fieldsOf(input);
    if (fields === null) return null;
    for (const f of fields) all.add(f);
  }
  return all;
}

/** The fields a zod schema declares at its top level (the /assess door's, which has no tRPC procedure around it). */
export function declaredFieldsOfSchema(schema: z.ZodType): DeclaredFields {
  return declaredFieldsOf([schema]);
}

/** Edit distance up to `limit` (a transposition counts one), else limit + 1: for "did you mean". */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[0]!.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]!.push(d);
    }
  }
  return rows[a.length]![b.length]!;
}

/** The declared field a misspelled one most likely meant (at most two edits away, and not the whole word). */
function suggestion(unknown: string, declared: ReadonlySet<string>): string | null {
  let best: string | null = null;
  let bestDistance = 3;
  const lower = unknown.toLowerCase();
  for (const field of declared) {
    const d = distance(lower, field.toLowerCase(), 2);
    if (d < bestDistance && d < field.length) {
      best = field;
      bestDistance = d;
    }
  }
  return best;
}

const MAX_NAMED = 10;
const shown = (name: string) => (name.length > 64 ? `${name.slice(0, 64)}...` : name);

/**
 * The 400 message for the input's top-level keys its procedure does not declare, or null. `tolerated` names keys a
 * client library adds on its own (tRPC's infinite queries add `direction`), accepted and dropped. `inPath` gives the
 * declared fields a REST caller sends in the path, which the message's list of what the operation takes leaves out
 * (they are not parameters of the body or query it names); asked only when there is a problem to word.
 */
export function unknownFieldsProblem(
  input: unknown,
  declared: DeclaredFields,
  tolerated: readonly string[] = [],
  inPath: () => readonly string[] = () => [],
): string | null {
  if (declared === null || !input || typeof input !== "object" || Array.isArray(input)) return null;
  const unknown: string[] = [];
  for (const key of Object.keys(input)) {
    if (!declared.has(key) && !tolerated.includes(key)) unknown.push(key);
  }
  if (unknown.length === 0) return null;
  const path = inPath();
  const offered = new Set([...declared].filter((f) => !path.includes(f)));
  const named = unknown.slice(0, MAX_NAMED).map((key) => {
    const meant = suggestion(key, offered);
    return meant ? `${shown(key)} (did you mean ${meant}?)` : shown(key);
  });
  const more = unknown.length > MAX_NAMED ? `, and ${unknown.length - MAX_NAMED} more` : "";
  const noun = unknown.length === 1 ? "parameter" : "parameters";
  return `Received unknown ${noun}: ${named.join(", ")}${more}. This operation takes: ${[...offered].sort().join(", ") || "no parameters"}.`;
}

/** A procedure as a router lists it: its metadata object and its input schemas. */
interface ProcedureLike {
  _def: { meta?: unknown; inputs?: readonly unknown[] };
}

// What each router declares, by the path a caller of that router names the procedure with: the app's router
// ("lists.addItems") and the routers some entries call on their own ("add" of the senders' router). A middleware
// knows its procedure only by that path and its metadata object, so both pick the entry.
const byPath = new Map<string, { meta: unknown; fields: DeclaredFields }[]>();

/** Called for every router built (server/api/trpc.ts `router`): its procedures' declared input fields. */
export function declareRouterInputs(procedures: Record<string, unknown>): void {
  for (const [path, procedure] of Object.entries(procedures)) {
    const def = (procedure as ProcedureLike)._def;
    const entry = { meta: def.meta, fields: declaredFieldsOf(def.inputs ?? []) };
    const known = byPath.get(path) ?? [];
    if (!known.some((k) => k.meta === entry.meta && sameFields(k.fields, entry.fields))) known.push(entry);
    byPath.set(path, known);
  }
}

function sameFields(a: DeclaredFields, b: DeclaredFields): boolean {
  if (a === null || b === null) return a === b;
  return a.size === b.size && [...a].every((f) => b.has(f));
}

/** The fields declared by the procedure called as `path` with this metadata, or null when it cannot tell. */
export function declaredFieldsFor(path: string, meta: unknown): DeclaredFields {
  const candidates = (byPath.get(path) ?? []).filter((k) => k.meta === meta);
  const [first, ...rest] = candidates;
  if (!first || rest.some((k) => !sameFields(k.fields, first.fields))) return null;
  return first.fields;
}
