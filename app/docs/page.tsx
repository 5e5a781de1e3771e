// The API reference, rendered on the server from the OpenAPI document the procedures generate: no CDN assets,
// works offline. Small client islands add search (DocsSearch) and "try it" (TryIt); the examples come from the
// schemas (examples.ts). A bundled OpenAPI renderer was weighed and left out: the ones on npm load fonts or
// scripts from a CDN by default, and this page already has the document's contract data they would not show
// (unit cost, capability, bulk rule).
import { getOpenApiDocument } from "../../server/api/rest/openapi";
import { Prose } from "./Inline";
import { DocsSearch } from "./DocsSearch";
import { Operation, operationId, searchText } from "./Operation";
import { SchemaOutline } from "./SchemaOutline";
import "./docs.css";

export const dynamic = "force-dynamic";
export const metadata = { title: "API reference" };

type Json = Record<string, any>;
const METHODS = ["get", "post", "put", "patch", "delete"];

function tagId(tag: string): string {
  return `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
}

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
  // Tags spelled in singular and plural ("Domain", "Domains") are one section.
  for (const tag of [...groups.keys()]) {
    const singular = tag.slice(0, -1);
    if (tag.endsWith("s") && groups.has(singular)) {
      groups.get(singular)!.push(...groups.get(tag)!);
      groups.delete(tag);
    }
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

export default function DocsPage() {
  const doc = getOpenApiDocument();
  const groups = groupByTag(doc);
  // A route published at two paths has one summary: the sidebar adds the path to tell them apart.
  const summaries = groups.flatMap(([, ops]) => ops.map(({ op }) => op.summary));
  const repeated = new Set(summaries.filter((s, i) => summaries.indexOf(s) !== i));
  return (
    <div className="docs">
      <nav className="docs-toc" aria-label="Endpoints">
        <a href="#overview" className="toc-title">
          {doc.info?.title}
        </a>
        <DocsSearch />
        <div className="toc-links">
          <a href="#errors">Error shape</a>
          {groups.map(([tag, ops]) => (
            <div key={tag} data-toc-group>
              <a className="toc-tag" href={`#${tagId(tag)}`}>
                {tag}
              </a>
              {ops.map(({ method, path, op }) => (
                <a
                  key={`${method} ${path}`}
                  href={`#${operationId(method, path)}`}
                  data-search={searchText(method, path, op)}
                >
                  <span className={`verb verb-${method}`}>{method.toUpperCase()}</span> {op.summary ?? path}
                  {repeated.has(op.summary) ? <code className="toc-path"> /v1{path}</code> : null}
                </a>
              ))}
            </div>
          ))}
        </div>
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
          <section key={tag} id={tagId(tag)} data-tag-section className="tag-section">
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
