// The API reference, rendered on the server from the OpenAPI document the procedures generate: no CDN assets,
// no client JavaScript, works offline.
import { getOpenApiDocument } from "../../server/api/rest/openapi";
import { Prose } from "./Inline";
import { Operation, operationId } from "./Operation";
import { SchemaOutline } from "./SchemaOutline";
import "./docs.css";

export const dynamic = "force-dynamic";
export const metadata = { title: "API reference" };

type Json = Record<string, any>;
const METHODS = ["get", "post", "put", "patch", "delete"];

function groupByTag(doc: Json) {
  const groups = new Map<string, { method: string; path: string; op: Json }[]>();
  for (const [path, ops] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ method, path, op });
    }
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

export default function DocsPage() {
  const doc = getOpenApiDocument();
  const groups = groupByTag(doc);
  return (
    <div className="docs">
      <nav className="docs-toc" aria-label="Endpoints">
        <a href="#overview" className="toc-title">
          {doc.info?.title}
        </a>
        <a href="#errors">Error shape</a>
        {groups.map(([tag, ops]) => (
          <div key={tag}>
            <p className="toc-tag">{tag}</p>
            {ops.map(({ method, path, op }) => (
              <a key={`${method} ${path}`} href={`#${operationId(method, path)}`}>
                <span className={`verb verb-${method}`}>{method.toUpperCase()}</span> {op.summary ?? path}
              </a>
            ))}
          </div>
        ))}
      </nav>
      <main className="docs-main">
        <section id="overview">
          <h1>{doc.info?.title}</h1>
          <p className="muted">
            Version {doc.info?.version} · base URL <code>{doc.servers?.[0]?.url ?? "/v1"}</code> · machine-readable:{" "}
            <a href="/v1/openapi.json">openapi.json</a> · <a href="/dashboard">Dashboard</a>
          </p>
          {doc.info?.description ? <Prose text={doc.info.description} /> : null}
        </section>
        <section id="errors">
          <h2>Error shape</h2>
          <p>Every error response has this body:</p>
          <pre>{`{ "error": { "code": "QUOTA_EXCEEDED", "message": "…" } }`}</pre>
          <SchemaOutline doc={doc} schema={doc.components?.schemas?.Error} />
        </section>
        {groups.map(([tag, ops]) => (
          <section key={tag}>
            <h2>{tag}</h2>
            {ops.map(({ method, path, op }) => (
              <Operation key={`${method} ${path}`} doc={doc} method={method} path={path} op={op} />
            ))}
          </section>
        ))}
      </main>
    </div>
  );
}
