// What a /v1 route reads as its body, from its procedure's meta: the one place both REST doors (handler.ts and the
// plain door) and the dashboard's tRPC endpoint (../http/dashboard.ts, through dashboardBodyLimit below) learn it,
// so that a change to the meta's shape is made here only.
import { appRouter } from "../root";
import type { Meta, MetaBody, RawBodyMedia } from "../meta";

/** The largest JSON body the REST API reads, unless a route's meta says otherwise. */
export const MAX_BODY_BYTES = 1_000_000;

export interface BodyRules {
  /** The largest body the route reads (bytes, after decoding a compressed body). */
  maxBytes: number;
  /** The body is one input field's raw text (a lockfile), read up to `maxBytes`; other fields come from the query. */
  raw?: { field: string; maxBytes: number; media?: readonly RawBodyMedia[] };
  /** A body sent as text/csv is this input field's text (other fields from the query); any other body is JSON. */
  csvField?: string;
}

const cache = new Map<string, BodyRules>();

/** A procedure's meta, as its router declared it. */
export function metaOf(procedurePath: string): Meta | undefined {
  return (appRouter._def.procedures as Record<string, { _def?: { meta?: Meta } }>)[procedurePath]?._def?.meta;
}

/** The body rules of the procedure behind a route (cached per process). */
export function bodyRulesOf(procedurePath: string): BodyRules {
  let rules = cache.get(procedurePath);
  if (!rules) {
    const meta: MetaBody | undefined = metaOf(procedurePath);
    rules = {
      maxBytes: meta?.maxBodyBytes ?? MAX_BODY_BYTES,
      raw: meta?.rawBody,
      csvField: meta?.csvBody?.field,
    };
    cache.set(procedurePath, rules);
  }
  return rules;
}

/** The field a request's body fills as raw text, with its cap, or undefined for a JSON body (or none). */
export function rawBodyOf(rules: BodyRules, contentType: string | null): BodyRules["raw"] {
  if (rules.raw) return rules.raw;
  if (rules.csvField && /^text\/csv\b/i.test(contentType ?? ""))
    return { field: rules.csvField, maxBytes: rules.maxBytes };
  return undefined;
}

/**
 * The JSON body that carries a raw-body field (a lockfile) of at most `fieldBytes` through the dashboard: the field's
 * own limit, the one the REST API applies to the raw body, is checked by the procedure on the text; this is only the
 * room its JSON form needs. JSON escapes quotes, backslashes and line breaks into two bytes each (other control
 * characters, which no lockfile holds, into six), and the envelope and the other fields fit in the default allowance.
 */
export const jsonBodyLimitFor = (fieldBytes: number) => 2 * fieldBytes + MAX_BODY_BYTES;

/**
 * The body the dashboard's tRPC endpoint reads for a procedure (its input as JSON): a declared larger body, the room
 * for its raw-body field in JSON, or the default; the default for a name that is no procedure.
 */
export function dashboardBodyLimit(procedurePath: string): number {
  const meta: MetaBody | undefined = metaOf(procedurePath);
  if (meta?.maxBodyBytes) return meta.maxBodyBytes;
  if (meta?.rawBody) return jsonBodyLimitFor(meta.rawBody.maxBytes);
  return MAX_BODY_BYTES;
}
