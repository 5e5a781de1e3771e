// Request and response examples built from the schemas themselves: every property, each with the schema's own
// example, default or first allowed value, else a realistic value for its name (realistic-values.ts) or one that
// fits its format. Nothing here is written per endpoint, so a changed schema changes its example.
import { bodyExample, fieldExample } from "../dashboard/console/field-text";
import { realisticValue } from "./realistic-values";
import { resolveRef } from "./SchemaOutline";

type Json = Record<string, any>;
const MAX_DEPTH = 6;

const FORMATS: Record<string, unknown> = {
  "date-time": "2026-01-15T09:30:00.000Z",
  date: "2026-01-15",
  email: "jane@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  ipv4: "8.8.8.8",
  ipv6: "2001:4860:4860::8888",
  uuid: "3f0c8a4e-5b7d-4c8e-9a1b-2c3d4e5f6a7b",
};

function byName(name: string | undefined, parent?: string): unknown {
  if (!name) return undefined;
  const real = realisticValue(name, parent);
  if (real !== undefined) return real;
  const b = bodyExample(name);
  if (b !== undefined) return b;
  return fieldExample(name) ?? undefined;
}

/** A plausible string from the shape of a property's name (checkedAt, attributionUrl, requestId, ...). */
function stringByPattern(name: string | undefined): string {
  if (!name) return "string";
  if (/(At|_at|Date|Since|Until)$/.test(name)) return FORMATS["date-time"] as string;
  if (/(url|Url|URL)$/.test(name)) return "https://example.com";
  if (/^(ip|address|answeredBy)$|(Ip|Address)$/.test(name)) return "8.8.8.8";
  if (/(domain|Domain|host|Host|exchange)$/.test(name)) return "example.com";
  if (/email|Email/.test(name)) return "jane@example.com";
  if (/(request_id|requestId)$/.test(name)) return "req_3kTq9V2mXw";
  return name.replace(/_/g, " ");
}

export function exampleOf(doc: Json, schema: Json | undefined, name?: string, depth = 0, parent?: string): unknown {
  const s = resolveRef(doc, schema);
  if (!s || depth > MAX_DEPTH) return null;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  const variants: Json[] | undefined = s.anyOf ?? s.oneOf;
  if (Array.isArray(variants) && variants.length) {
    const first = variants.find((v) => resolveRef(doc, v)?.type !== "null") ?? variants[0];
    return exampleOf(doc, first, name, depth + 1, parent);
  }
  const type = Array.isArray(s.type)
    ? s.type.find((t: string) => t !== "null")
    : (s.type ?? (s.properties ? "object" : undefined));
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries<Json>(s.properties ?? {})) out[k] = exampleOf(doc, v, k, depth + 1, name);
      return out;
    }
    case "array": {
      const named = byName(name, parent);
      if (Array.isArray(named)) return named;
      return [exampleOf(doc, s.items, undefined, depth + 1, name)];
    }
    case "integer":
    case "number": {
      const raw = byName(name, parent);
      const named = Number(raw);
      if (typeof raw !== "boolean" && raw !== undefined && Number.isFinite(named)) return named;
      // zod's int() bounds are the safe-integer limits: only bounds a person would write are used.
      const lo = typeof s.minimum === "number" && s.minimum > -1e6 ? s.minimum : 0;
      const hi = typeof s.maximum === "number" && s.maximum < 1e9 ? s.maximum : Number.POSITIVE_INFINITY;
      return Math.min(hi, Math.max(lo, type === "integer" ? 1 : 0.5));
    }
    case "boolean":
      return false;
    case "string": {
      if (s.format && FORMATS[s.format] !== undefined) return FORMATS[s.format];
      const named = byName(name, parent);
      if (typeof named === "string") return named;
      return stringByPattern(name);
    }
    default:
      return null;
  }
}

export function exampleJson(doc: Json, schema: Json | undefined): string {
  return JSON.stringify(exampleOf(doc, schema), null, 2);
}
