// The input the lookup console calls a procedure with, from its form: the JSON body box, then each field.
import type { LookupEntry, LookupField } from "./catalog-types";

function coerce(field: LookupField, raw: string): unknown {
  // A path parameter reaches the procedure as the path's text over /v1 (GET /asn/15169: "15169"), whatever type the
  // document gives it (the ASN is documented as an integer): the console sends it the same way.
  if (field.in === "path") return raw;
  if (field.type === "integer" || field.type === "number")
    return raw.trim() !== "" && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
  if (field.type === "boolean") return raw === "true" ? true : raw === "false" ? false : raw;
  if (field.type.endsWith("[]"))
    return raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  return raw;
}

export function buildInput(entry: LookupEntry, values: Record<string, string>, body: string): Record<string, unknown> {
  let input: Record<string, unknown> = {};
  if (entry.bodyTemplate !== null && body.trim()) {
    const parsed: unknown = JSON.parse(body);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
      throw new Error("The request body must be a JSON object.");
    input = parsed as Record<string, unknown>;
  }
  for (const f of entry.fields) {
    const raw = values[f.name] ?? "";
    if (raw === "" && !f.required) continue;
    input[f.name] = coerce(f, raw);
  }
  return input;
}
