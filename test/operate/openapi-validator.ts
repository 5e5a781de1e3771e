// Prism-style validation of live answers against the served OpenAPI document, in process: the answered status
// must be documented for the operation ("Unable to match the returned status code" in Prism), the media type must
// be one the document lists, the JSON body must satisfy its schema (JSON Schema 2020-12, as OpenAPI 3.1 writes
// it, checked by ajv) and every header the document names for that answer must be present.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Json = Record<string, any>;

export interface LiveAnswer {
  status: number;
  headers: Headers;
  text: string;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

export function answerValidator(doc: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(doc, "openapi.json");
  const templates = Object.keys(doc.paths).map((template) => {
    const source = template
      .replace(/\/+$/, "")
      .split("/")
      .map((seg) => seg.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+"))
      .join("/");
    return { template, regex: new RegExp(`^${source}/?$`) };
  });

  /** The problems of one answer to `METHOD path` (path relative to /v1, query allowed); empty when it conforms. */
  return function problems(method: string, path: string, answer: LiveAnswer): string[] {
    const bare = path.replace(/\?.*$/, "");
    const m = method.toLowerCase();
    // Literal paths win over templated ones, as the router decides.
    const found = templates
      .filter((t) => t.regex.test(bare) && doc.paths[t.template][m])
      .sort((a, b) => a.template.split("{").length - b.template.split("{").length)[0];
    if (!found) return [`${method} ${path}: no operation in the document`];
    const response = doc.paths[found.template][m].responses?.[String(answer.status)];
    if (!response) return [`${method} ${found.template}: unable to match the returned status code ${answer.status}`];
    const out: string[] = [];
    for (const name of Object.keys(response.headers ?? {})) {
      if (!answer.headers.has(name)) out.push(`${answer.status}: header ${name} is documented but missing`);
    }
    const content: Json = response.content ?? {};
    if (!Object.keys(content).length) {
      if (answer.text) out.push(`${answer.status}: a body was answered where the document has none`);
      return out;
    }
    const type = (answer.headers.get("content-type") ?? "").split(";")[0].trim();
    if (!content[type]) return [...out, `${answer.status}: media type ${type} is not documented`];
    if (!content[type].schema || type !== "application/json") return out;
    const ref = `openapi.json#/${pointer("paths", found.template, m, "responses", String(answer.status), "content", type, "schema")}`;
    const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
    if (!validate(JSON.parse(answer.text))) {
      for (const e of validate.errors ?? []) out.push(`${answer.status} body${e.instancePath}: ${e.message}`);
    }
    return out;
  };
}
