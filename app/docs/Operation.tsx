// One API operation: what it does, what it needs, what it costs, what it takes and what it answers.
import { Inline, Prose } from "./Inline";
import { describeType, resolveRef, SchemaOutline } from "./SchemaOutline";

type Json = Record<string, any>;

export function operationId(method: string, path: string): string {
  return `${method}-${path}`.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

export function Operation({ doc, method, path, op }: { doc: Json; method: string; path: string; op: Json }) {
  const params: Json[] = op.parameters ?? [];
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const ok = op.responses?.["200"];
  const okSchema = ok?.content?.["application/json"]?.schema;
  const errors = Object.entries<Json>(op.responses ?? {}).filter(([code]) => code !== "200");
  return (
    <section className="op" id={operationId(method, path)} data-testid="operation">
      <h3>
        <span className={`verb verb-${method}`}>{method.toUpperCase()}</span> <code>/v1{path}</code>
      </h3>
      {op.summary ? <p className="summary">{op.summary}</p> : null}
      <div className="facts">
        {op["x-service-capability"] ? (
          <span>
            Capability <code>{op["x-service-capability"]}</code>
          </span>
        ) : null}
        {op["x-service-cost"] ? <span>Cost: {op["x-service-cost"]}</span> : <span>Unmetered</span>}
        {op["x-service-bulk"] && op["x-service-bulk"] !== "never" ? (
          <span>Bulk: {op["x-service-bulk"] === "always" ? "always required" : "required for more than one target"}</span>
        ) : null}
        {op["x-service-access"] ? <span>Access: {op["x-service-access"]}</span> : null}
        {op.security?.length ? <span>API key required</span> : <span>No key</span>}
      </div>
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
                      {s.default !== undefined ? <span className="muted"> default {JSON.stringify(s.default)}</span> : null}
                      {s.minimum !== undefined || s.maximum !== undefined ? (
                        <span className="muted">
                          {" "}
                          {s.minimum ?? ""}..{s.maximum ?? ""}
                        </span>
                      ) : null}
                    </td>
                    <td>{p.description ?? s.description ? <Inline text={String(p.description ?? s.description)} /> : null}</td>
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
          <h4>200 response</h4>
          {ok.headers ? (
            <p className="small muted">
              Headers: {Object.keys(ok.headers).map((h, i) => (
                <span key={h}>
                  {i ? ", " : ""}
                  <code>{h}</code>
                </span>
              ))}
            </p>
          ) : null}
          {okSchema ? <SchemaOutline doc={doc} schema={okSchema} /> : <p className="small muted">{ok.description}</p>}
        </>
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
    </section>
  );
}
