// A JSON Schema as a readable outline: property name, type, required, nullable, allowed values, description.
import { Inline } from "./Inline";

type Json = Record<string, any>;
const MAX_DEPTH = 6;

export function resolveRef(doc: Json, schema: Json | undefined): Json | undefined {
  let s = schema;
  for (let i = 0; i < 10 && s?.$ref; i++)
    s = doc.components?.schemas?.[String(s.$ref).replace(/^#\/components\/schemas\//, "")];
  return s;
}

function variants(s: Json): Json[] | null {
  const v = s.anyOf ?? s.oneOf;
  return Array.isArray(v) ? v : null;
}

export function describeType(doc: Json, schema: Json | undefined): string {
  const s = resolveRef(doc, schema);
  if (!s) return "any";
  const v = variants(s);
  if (v) return [...new Set(v.map((x) => describeType(doc, x)))].join(" | ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((e: unknown) => JSON.stringify(e)).join(" | ");
  const t = Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? (s.properties ? "object" : "any"));
  if (t === "array") return `${describeType(doc, s.items)}[]`;
  return s.format ? `${t} (${s.format})` : t;
}

/** The object schema to expand under a property, looking through nullable unions and arrays. */
function expandable(doc: Json, schema: Json | undefined): Json | null {
  const s = resolveRef(doc, schema);
  if (!s) return null;
  if (s.properties) return s;
  if (s.type === "array") return expandable(doc, s.items);
  const v = variants(s);
  if (v) {
    for (const x of v) {
      const e = expandable(doc, x);
      if (e) return e;
    }
  }
  if (s.additionalProperties && typeof s.additionalProperties === "object")
    return expandable(doc, s.additionalProperties);
  return null;
}

export function SchemaOutline({ doc, schema, depth = 0 }: { doc: Json; schema: Json | undefined; depth?: number }) {
  const s = expandable(doc, schema);
  if (!s) return <code>{describeType(doc, schema)}</code>;
  if (depth > MAX_DEPTH) return <code>object</code>;
  const required = new Set<string>(s.required ?? []);
  return (
    <ul className="schema">
      {Object.entries<Json>(s.properties ?? {}).map(([name, prop]) => {
        const p = resolveRef(doc, prop) ?? {};
        const nested = expandable(doc, prop);
        return (
          <li key={name}>
            <code className="prop">{name}</code> <span className="type">{describeType(doc, prop)}</span>
            {required.has(name) ? <span className="req"> required</span> : null}
            {p.description ? (
              <span className="desc">
                {" "}
                — <Inline text={String(p.description)} />
              </span>
            ) : null}
            {nested ? <SchemaOutline doc={doc} schema={prop} depth={depth + 1} /> : null}
          </li>
        );
      })}
    </ul>
  );
}
