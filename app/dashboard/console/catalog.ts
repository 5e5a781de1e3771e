// Builds the console's catalog from the procedures themselves: every procedure whose meta says `metered`, with
// the REST path, summary and cost from its meta and its inputs from the generated OpenAPI document. Nothing here
// names a particular lookup, so procedures added later appear without touching the console.
import { z } from "zod";
import { getOpenApiDocument } from "../../../server/api/rest/openapi";
import { appRouter } from "../../../server/api/root";
import type { Meta } from "../../../server/api/trpc";
import type { LookupEntry, LookupField } from "./catalog-types";
import { forUsers } from "../_components/answers/user-text";
import { bodyExample, fieldExample } from "./field-text";

type Json = Record<string, any>;
type AnyProcedure = { _def: { type: "query" | "mutation" | "subscription"; meta?: Meta; inputs?: unknown[] } };

let cached: LookupEntry[] | null = null;

export function lookupCatalog(): LookupEntry[] {
  if (cached) return cached;
  const doc = getOpenApiDocument();
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, AnyProcedure> } })._def.procedures;
  const entries: LookupEntry[] = [];
  for (const [procedure, proc] of Object.entries(procedures)) {
    const meta = proc._def.meta;
    if (!meta?.metered || proc._def.type === "subscription") continue;
    const openapi = meta.openapi;
    // Only what the API offers: dashboard-only procedures (saving a report) have their own pages.
    if (!openapi) continue;
    // A raw-body route (a whole lockfile as the body) has a page of its own with upload and paste: the dependency
    // scan on the vulnerabilities page; the console's fields and JSON body cannot hold it.
    if (meta.rawBody) continue;
    const op: Json | undefined = openapi ? doc.paths?.[openapi.path]?.[openapi.method.toLowerCase()] : undefined;
    const bodySchema = op ? resolve(doc, op.requestBody?.content?.["application/json"]?.schema) : inputSchemaOf(proc);
    const fields = op ? paramFields(doc, op.parameters ?? []) : [];
    entries.push({
      procedure,
      kind: proc._def.type,
      method: openapi?.method ?? (proc._def.type === "query" ? "GET" : "POST"),
      path: openapi?.path ?? null,
      tag: openapi?.tags?.[0] ?? "Other",
      summary: openapi?.summary ?? procedure,
      description: forUsers(openapi?.description ?? ""),
      capability: meta.metered.capability,
      cost: meta.metered.cost,
      bulk: meta.metered.bulk,
      fields,
      bodyTemplate: bodySchema ? JSON.stringify(exampleOf(doc, bodySchema, 0), null, 2) : null,
      bodyFields: bodySchema ? objectFields(doc, bodySchema) : [],
    });
  }
  const tags = new Set(entries.map((e) => e.tag));
  for (const e of entries) e.tag = oneTag(e.tag, tags);
  cached = withoutAliases(entries);
  cached.sort((a, b) => a.tag.localeCompare(b.tag) || (a.path ?? a.procedure).localeCompare(b.path ?? b.procedure));
  return cached;
}

/**
 * One entry per operation: a route published at a second path for compatibility (the spec's literal
 * /v1/captcha/test beside /captcha/test) has the same summary and method; the shorter path stays.
 */
function withoutAliases(entries: LookupEntry[]): LookupEntry[] {
  const best = new Map<string, LookupEntry>();
  for (const e of entries) {
    const key = `${e.method} ${e.summary}`;
    const seen = best.get(key);
    if (!seen || (e.path ?? "").length < (seen.path ?? "").length) best.set(key, e);
  }
  return entries.filter((e) => best.get(`${e.method} ${e.summary}`) === e);
}

/** Tags spelled in singular and plural ("Domain", "Domains") are one group. */
function oneTag(tag: string, all: Set<string>): string {
  return tag.endsWith("s") && all.has(tag.slice(0, -1)) ? tag.slice(0, -1) : tag;
}

function resolve(doc: Json, schema: Json | undefined): Json | undefined {
  let s = schema;
  for (let i = 0; i < 10 && s?.$ref; i++) {
    const name = String(s.$ref).replace(/^#\/components\/schemas\//, "");
    s = doc.components?.schemas?.[name];
  }
  return s;
}

/** Dashboard-only metered procedures have no OpenAPI operation: read their zod input directly. */
function inputSchemaOf(proc: AnyProcedure): Json | undefined {
  const input = proc._def.inputs?.[0];
  if (!input) return undefined;
  try {
    return z.toJSONSchema(input as z.ZodType, { io: "input", unrepresentable: "any" }) as Json;
  } catch {
    return undefined;
  }
}

function typeName(doc: Json, schema: Json | undefined): string {
  const s = resolve(doc, schema);
  if (!s) return "any";
  if (Array.isArray(s.anyOf ?? s.oneOf)) return (s.anyOf ?? s.oneOf).map((x: Json) => typeName(doc, x)).join(" | ");
  if (s.type === "array") return `${typeName(doc, s.items)}[]`;
  if (Array.isArray(s.type)) return s.type.join(" | ");
  return s.type ?? "any";
}

function paramFields(doc: Json, params: Json[]): LookupField[] {
  return params
    .filter((p) => p.in === "path" || p.in === "query")
    .map((p) => {
      const s = resolve(doc, p.schema) ?? {};
      const enumValues = Array.isArray(s.enum) ? s.enum.map(String) : null;
      return {
        name: String(p.name),
        in: p.in,
        required: Boolean(p.required),
        type: typeName(doc, s),
        description: (p.description ?? s.description) ? forUsers(String(p.description ?? s.description)) : null,
        enumValues,
        defaultValue: s.default === undefined ? null : String(s.default),
        example: s.example !== undefined ? String(s.example) : fieldExample(String(p.name)),
      };
    });
}

function objectFields(doc: Json, schema: Json) {
  const s = resolve(doc, schema);
  if (!s?.properties) return [];
  const required = new Set<string>(s.required ?? []);
  return Object.entries<Json>(s.properties).map(([name, prop]) => ({
    name,
    type: typeName(doc, prop),
    required: required.has(name),
    description: resolve(doc, prop)?.description ? forUsers(String(resolve(doc, prop)?.description)) : null,
  }));
}

/** A minimal valid-looking body: required properties only, each with its example, default or first enum value. */
function exampleOf(doc: Json, schema: Json | undefined, depth: number): unknown {
  const s = resolve(doc, schema);
  if (!s || depth > 4) return null;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const variants = s.anyOf ?? s.oneOf;
  if (Array.isArray(variants) && variants.length)
    return exampleOf(doc, variants.find((v: Json) => v.type !== "null") ?? variants[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const required: string[] = s.required ?? [];
      for (const name of required)
        out[name] =
          depth === 0 && bodyExample(name) !== undefined
            ? bodyExample(name)
            : exampleOf(doc, s.properties?.[name], depth + 1);
      return out;
    }
    case "array":
      return [exampleOf(doc, s.items, depth + 1)];
    case "integer":
    case "number":
      return s.minimum ?? 0;
    case "boolean":
      return false;
    case "string":
      return "";
    default:
      return null;
  }
}
