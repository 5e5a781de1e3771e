// The API reference, rendered on the server from the OpenAPI document the procedures generate: no CDN assets,
// works offline. The page lists every operation with its summary and facts (what it needs and costs); an
// operation's parameters, schemas, examples and "try it" are fetched and rendered when it is opened
// (OperationDetails), so the page stays small however large the API grows. Search (DocsSearch) filters the list.
// A bundled OpenAPI renderer was weighed and left out: the ones on npm load fonts or scripts from a CDN by
// default, and this page already has the document's contract data they would not show (unit cost, capability).
import { loadOpenApiDocument } from "../../server/api/rest/openapi";
import { BaseUrl } from "./BaseUrl";
import { DocsSearch } from "./DocsSearch";
import { Prose } from "./Inline";
import { OperationDetails } from "./OperationDetails";
import { baseOf, groupByTag, searchText, type ListedOperation } from "./reference";
import { SchemaOutline } from "./SchemaOutline";
import "./docs.css";

export const dynamic = "force-dynamic";
export const metadata = { title: "API reference" };

type Json = Record<string, any>;

function tagId(tag: string): string {
  return `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
}

function bulkFact(op: Json): string | null {
  const rule = op["x-service-bulk"];
  if (!rule || rule === "never") return null;
  return `Bulk: ${rule === "always" ? "always required" : "required for more than one target"}`;
}

function OperationSummary({ doc, listed }: { doc: Json; listed: ListedOperation }) {
  const { id, method, path, op } = listed;
  const bulk = bulkFact(op);
  return (
    <section className="op" id={id} data-testid="operation" data-search={searchText(method, path, op)}>
      <h3>
        <span className={`verb verb-${method}`}>{method.toUpperCase()}</span>{" "}
        <code>
          {baseOf(doc, path)}
          {path}
        </code>
      </h3>
      {op.summary ? <p className="summary">{op.summary}</p> : null}
      <div className="facts">
        {op["x-service-capability"] ? (
          <span>
            Capability <code>{op["x-service-capability"]}</code>
          </span>
        ) : null}
        <span>{op["x-service-cost"] ? `Cost: ${op["x-service-cost"]}` : "Unmetered"}</span>
        {bulk ? <span>{bulk}</span> : null}
        <span>{op.security?.length ? "API key required" : "No key"}</span>
      </div>
      <OperationDetails id={id} />
    </section>
  );
}

export default async function DocsPage() {
  // Built in slices on first use, so a cold start does not hold other requests up.
  const doc = await loadOpenApiDocument();
  const groups = groupByTag(doc);
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
              {ops.map(({ id, method, path, op }) => (
                <a key={id} href={`#${id}`} data-toc-op={id}>
                  <span className={`verb verb-${method}`}>{method.toUpperCase()}</span> {op.summary ?? path}
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
            Version {doc.info?.version} · base URL <BaseUrl fallback={doc.servers?.[0]?.url ?? "/v1"} /> ·
            machine-readable: <a href="/v1/openapi.json">openapi.json</a> · <a href="/dashboard">Dashboard</a>
          </p>
          {doc.info?.description ? <Prose text={doc.info.description} /> : null}
        </section>
        <section id="errors">
          <h2>Error shape</h2>
          <p>Every error response has this body:</p>
          <pre>
            {JSON.stringify(
              {
                error: {
                  code: "QUOTA_EXCEEDED",
                  message:
                    "This request needs 1 lookup unit, more than is left of the monthly allowance of 1000; it resets at the start of the next UTC month.",
                },
              },
              null,
              2,
            )}
          </pre>
          <SchemaOutline doc={doc} schema={doc.components?.schemas?.Error} />
        </section>
        {groups.map(([tag, ops]) => (
          <section key={tag} id={tagId(tag)} data-tag-section className="tag-section">
            <h2>{tag}</h2>
            {ops.map((listed) => (
              <OperationSummary key={listed.id} doc={doc} listed={listed} />
            ))}
          </section>
        ))}
      </main>
    </div>
  );
}
