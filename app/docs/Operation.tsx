// One API operation's details: what it does, what it takes and what it answers, with examples against this
// site's own address. Rendered in the browser when the reader opens the operation (OperationDetails.tsx), from
// the slice of the document the page fetches (reference.ts); the page itself lists only the operations.
import { fieldExample } from "../dashboard/console/field-text";
import { exampleJson, exampleOf } from "./examples";
import { Inline, Prose } from "./Inline";
import { describeType, resolveRef, SchemaOutline } from "./SchemaOutline";
import type { OperationSlice } from "./reference";
import { TryIt, type TryParam } from "./TryIt";

type Json = Record<string, any>;

function paramExample(doc: Json, p: Json): string {
  const s = resolveRef(doc, p.schema) ?? {};
  if (p.example !== undefined) return String(p.example);
  const named = fieldExample(String(p.name));
  if (named) return named;
  const v = exampleOf(doc, p.schema, String(p.name));
  return s.default !== undefined ? String(s.default) : v === null || v === undefined ? "" : String(v);
}

function curlExample(
  origin: string,
  base: string,
  method: string,
  path: string,
  examples: { p: Json; v: string }[],
  body: string | null,
  needsKey: boolean,
): string {
  let url = path;
  const query = new URLSearchParams();
  for (const { p, v } of examples) {
    if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(v));
    else if (p.in === "query" && p.required) query.set(p.name, v);
  }
  const lines = [`curl -X ${method.toUpperCase()} "${origin}${base}${url}${query.size ? `?${query}` : ""}"`];
  if (needsKey) lines.push(`  -H "Authorization: Bearer $KEY"`);
  if (body !== null) lines.push(`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(JSON.parse(body))}'`);
  return lines.join(" \\\n");
}

export function Operation({ slice, origin }: { slice: OperationSlice; origin: string }) {
  const { doc, method, path, op, base, id } = slice;
  const params: Json[] = op.parameters ?? [];
  const body = op.requestBody?.content?.["application/json"]?.schema;
  // A route that always answers 202 (a bulk job) documents no 200.
  const okStatus = op.responses?.["200"] ? "200" : op.responses?.["202"] ? "202" : null;
  const ok = okStatus ? op.responses[okStatus] : null;
  const okSchema = ok?.content?.["application/json"]?.schema;
  const also = okStatus === "200" ? op.responses?.["202"] : null;
  const errors = Object.entries<Json>(op.responses ?? {}).filter(([code]) => Number(code) >= 400);
  const needsKey = Boolean(op.security?.length);
  const examples = params
    .filter((p) => p.in === "path" || p.in === "query")
    .map((p) => ({ p, v: paramExample(doc, p) }));
  const bodyExample = body ? exampleJson(doc, body) : null;
  const okExample = okSchema ? exampleJson(doc, okSchema) : null;
  const tryParams: TryParam[] = examples.map(({ p, v }) => ({
    name: String(p.name),
    in: String(p.in),
    required: Boolean(p.required),
    example: v,
  }));
  return (
    <div className="op-details">
      {op.description ? (
        <div className="desc">
          <Prose text={op.description} />
        </div>
      ) : null}
      {params.length ? (
        <>
          <h4>Parameters</h4>
          <table className="params">
            <thead>
              <tr>
                <th>Name</th>
                <th>In</th>
                <th>Type</th>
                <th>Description</th>
              </tr>
            </thead>
            <tbody>
              {params.map((p) => {
                const s = resolveRef(doc, p.schema) ?? {};
                return (
                  <tr key={`${p.in}-${p.name}`}>
                    <td>
                      <code>{p.name}</code>
                      {p.required ? <span className="req"> required</span> : null}
                    </td>
                    <td>{p.in}</td>
                    <td>
                      <code>{describeType(doc, p.schema)}</code>
                      {s.default !== undefined ? (
                        <span className="muted"> default {JSON.stringify(s.default)}</span>
                      ) : null}
                      {s.minimum !== undefined || s.maximum !== undefined ? (
                        <span className="muted">
                          {" "}
                          {s.minimum ?? ""}..{s.maximum ?? ""}
                        </span>
                      ) : null}
                    </td>
                    <td>
                      {(p.description ?? s.description) ? (
                        <Inline text={String(p.description ?? s.description)} />
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      ) : null}
      {body ? (
        <>
          <h4>Request body (JSON{op.requestBody?.required ? ", required" : ""})</h4>
          <SchemaOutline doc={doc} schema={body} />
        </>
      ) : null}
      {ok ? (
        <>
          <h4>{okStatus} response</h4>
          {ok.headers ? (
            <p className="small muted">
              Headers:{" "}
              {Object.keys(ok.headers).map((h, i) => (
                <span key={h}>
                  {i ? ", " : ""}
                  <code>{h}</code>
                </span>
              ))}
            </p>
          ) : null}
          {okSchema ? <SchemaOutline doc={doc} schema={okSchema} /> : <p className="small muted">{ok.description}</p>}
          {also ? (
            <p className="small">
              <code>202</code> <Inline text={String(also.description ?? "")} />, with the same body.
            </p>
          ) : null}
        </>
      ) : null}
      <h4>Example request</h4>
      <pre data-testid="example-request" tabIndex={0}>
        {curlExample(origin, base, method, path, examples, bodyExample, needsKey)}
      </pre>
      {okExample ? (
        <>
          <h4>Example response</h4>
          <pre data-testid="example-response" tabIndex={0}>
            {okExample}
          </pre>
        </>
      ) : null}
      {base ? (
        <TryIt id={id} method={method} path={path} params={tryParams} bodyExample={bodyExample} needsKey={needsKey} />
      ) : null}
      {errors.length ? (
        <>
          <h4>Errors</h4>
          <table className="params">
            <tbody>
              {errors.map(([code, r]) => (
                <tr key={code}>
                  <td>
                    <code>{code}</code>
                  </td>
                  <td>
                    <Inline text={String(r.description ?? "")} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}
