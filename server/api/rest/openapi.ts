// The OpenAPI document, generated from the procedures by trpc-to-openapi and then completed with what the
// generator cannot know: the spec's error shape on every error response, the quota headers on metered 200s,
// the capability extension, and the paths exactly as the spec writes them (trailing slashes included).
import { STATUS_CODES } from "node:http";
import { forEachOpenApiProcedure, generateOpenApiDocument } from "trpc-to-openapi";
import { setting } from "../../env";
import { ERROR_STATUS, type ErrorCode } from "../../errors";
import { costOf } from "../charging";
import { errorCodesOf } from "../contract";
import { accessSentence, bulkRuleOf } from "../contract-text";
import { appRouter } from "../root";
import type { Meta, RawBodyMedia } from "../trpc";
import { ACCEPTED_ENCODINGS } from "./body-encoding";
import { completeForTools } from "./openapi-tooling";

type Json = Record<string, any>;
// One document per process: held on globalThis, since Next may bundle this module into several route bundles
// (the REST route, /docs, the console) and a warm-up in one must serve them all.
const held = globalThis as unknown as { __serviceOpenApiDocument?: Json };

const API_DESCRIPTION = `Security and fraud intelligence: risk assessment, IP, ASN, domain, DNS, email, TLS, reachability, blocklist and
package-vulnerability lookups for a workspace.

**Authentication.** Send a workspace API key as \`Authorization: Bearer <key>\` or \`X-API-Key: <key>\`. A missing,
unknown or revoked key is 401 \`UNAUTHORIZED\`, with \`WWW-Authenticate: Bearer realm="api"\` (and
\`error="invalid_token"\` for a key that is not valid); a paused key is 403 \`API_KEY_PAUSED\`.

**Metering.** Every metered lookup reserves its lookup units atomically before any provider work, from one UTC
calendar-month allowance shared by all keys of the workspace. What is decided from the request alone costs nothing:
every 400, 401, 402, 403 and 429, and the 404s each operation lists as decided from the request (a private address, a
special-use name). Once admitted, a request counts whatever the sources found: a source's "not found" (404
\`PACKAGE_NOT_FOUND\`, \`VERSION_NOT_FOUND\`, \`DOMAIN_NOT_FOUND\`, \`NOT_FOUND\`) is an answer. What is not answered is
given back, as a ledger row with negative units and the reason: a 503 \`UPSTREAM_UNAVAILABLE\` gives back all its units
(so it is safe to retry after \`Retry-After\`), a batch the units of the targets no source answered (blocklist
targets, a CIDR range's addresses, a bulk job's items), and an answer that could not be delivered all of them. Every
lookup history entry shows the units charged and any refund. Every 200 of a metered route carries
\`X-Service-Quota-Limit\`, \`X-Service-Quota-Used\`, \`X-Service-Quota-Remaining\` and \`X-Service-Quota-Reset\` (start
of the next UTC month), counted after what the request gave back. Each operation's \`x-service-capability\` names the
plan capability it needs (\`full\`: any Suite or Lookups plan; \`geolocation\` and \`vulnerabilities\`: Free or any
paid plan) and \`x-service-cost\` how its units are counted.

**Errors.** Every error body is \`{ "error": { "code": "...", "message": "..." } }\`. Codes: ${Object.entries(
  ERROR_STATUS,
)
  .map(([c, s]) => `\`${c}\` (${s})`)
  .join(
    ", ",
  )}. An unknown path or method is 404 \`LOOKUP_NOT_FOUND\` before authentication. 429 carries \`Retry-After\`.

**Pagination.** A list pages with \`limit\` and \`cursor\`: pass the previous page's \`next_cursor\` (null on the last
page) as \`cursor\`. An empty \`cursor\` (\`?cursor=\`) is the first page, as no cursor is, on every list.

**Headers.** Every response carries \`X-Request-Id\`; lookup responses carry \`Cache-Control: private, no-store\`.

**Request bodies.** JSON with \`Content-Type: application/json\`, at most 1,000,000 bytes unless the operation says
otherwise; a leading UTF-8 byte-order mark is ignored (RFC 8259 section 8.1). A body may be compressed with \`Content-Encoding\` ${ACCEPTED_ENCODINGS.join(", ")}: it is decoded, and the
limit applies to the decoded size too; any other encoding is 400 \`INVALID_REQUEST\`. Strings must be text: a NUL,
half of a UTF-16 surrogate pair, or a control character outside free-text fields is 400 \`INVALID_REQUEST\` naming the
field, and a raw body (a lockfile, a CSV file) must be UTF-8 (or UTF-16 with its byte-order mark). A request target
that is not a path (\`OPTIONS *\`) or a request with two \`Host\` headers is 400 \`INVALID_REQUEST\`. A parameter the
operation does not declare (a top-level field of the JSON body, or a query parameter where the operation reads the
query) is 400 \`INVALID_REQUEST\` naming each one (\`Received unknown parameter: emial (did you mean email?)\`), never
dropped. The objects inside a body that the service defines (a payment, a list item, a rule condition, a monitor's checks,
thresholds and email alerts, a case's \`add_to_list\`) are judged the same way, each key named with its path
(\`Received unknown parameter: items.1.expire_at. items.1 takes: expires_at, note, value.\`); the open objects,
\`/assess\`'s \`metadata\` and the \`device\` signals a browser collects, take any keys.

**Browsers.** Cross-origin calls need an origin listed in \`SERVICE_ALLOWED_ORIGINS\`; preflight accepts only registered
route and method pairs and the request headers Authorization, Content-Type, X-API-Key and Accept; otherwise 403
\`ORIGIN_FORBIDDEN\`. Approved origins can read the quota headers. Cookies are never accepted cross-origin.

Geolocation data: IP Geolocation by DB-IP (https://db-ip.com), CC BY 4.0.`;

const ERROR_REF = { $ref: "#/components/schemas/Error" };
const QUOTA_HEADERS: Json = {
  "X-Service-Quota-Limit": {
    description: "Workspace UTC monthly lookup-unit allowance",
    schema: { type: "integer", minimum: 0 },
  },
  "X-Service-Quota-Used": {
    description: "Reserved lookup units this UTC month",
    schema: { type: "integer", minimum: 0 },
  },
  "X-Service-Quota-Remaining": { description: "Remaining lookup units", schema: { type: "integer", minimum: 0 } },
  "X-Service-Quota-Reset": {
    description: "Next UTC monthly reset (start of the next UTC calendar month)",
    schema: { type: "string", format: "date-time" },
  },
};
/** The 202 of a procedure that declares `accepted` (server/api/trpc.ts Meta): the same body as its 200 would be. */
const ACCEPTED: Record<NonNullable<Meta["accepted"]>, string> = {
  always: "Accepted: the work is admitted and runs in the background; the body is its current state",
  "when-running":
    'Accepted: the work outlasted the wait and is still running (`status: "running"`); read it later by its id',
};
const REQUEST_ID_HEADER = { "X-Request-Id": { description: "Identifier of this request", schema: { type: "string" } } };

/** One error response: the codes of this operation that map to `status` in the one table (server/errors.ts). */
function errorResponse(status: number, codes: ErrorCode[]): Json {
  const retryAfter = status === 429 || status === 503;
  return {
    description: `${STATUS_CODES[status] ?? "Error"}: ${codes.map((c) => `\`${c}\``).join(", ")}${retryAfter ? "; see Retry-After" : ""}`,
    headers: retryAfter ? { ...REQUEST_ID_HEADER, "Retry-After": { schema: { type: "integer" } } } : REQUEST_ID_HEADER,
    content: { "application/json": { schema: ERROR_REF } },
  };
}

/**
 * Routes outside /v1 that API users embed directly (served by Next routes, not procedures): each path item names
 * its own server, the site root, since the document's base URL is /v1.
 */
function PUBLIC_PATHS(): Json {
  const configured = setting("SERVICE_PUBLIC_URL");
  const root = configured ? configured.replace(/\/+$/, "") : "/";
  const cors = {
    "Access-Control-Allow-Origin": {
      description: "Always `*`: any site may embed the badge",
      schema: { type: "string", enum: ["*"] },
    },
  };
  const cache = {
    "Cache-Control": {
      description: "`public, max-age=300`: caches may keep the badge for 5 minutes",
      schema: { type: "string" },
    },
  };
  const etag = {
    ETag: { description: "Strong validator of this badge; send it back as If-None-Match", schema: { type: "string" } },
  };
  return {
    "/badges/{host}.svg": {
      servers: [{ url: root, description: "The site root (this path is not under /v1)" }],
      get: {
        operationId: "scans-badge",
        tags: ["Scans"],
        summary: "Security grade badge of a host",
        description:
          "An SVG badge with the grade and date of the host's latest public scan (POST /scans with `visibility: public`), or a neutral `not scanned`. Private and unlisted scans are never shown. Embed it as an image; it carries an ETag, so a conditional request with `If-None-Match` is 304 while the badge has not changed. A name that is not a valid host is 404 NOT_FOUND (JSON).\n\n**Access:** no API key (none is read), any site may embed it (CORS open). **Cost:** unmetered (no lookup units).",
        security: [],
        parameters: [
          {
            name: "host",
            in: "path",
            required: true,
            description: "Host name as scanned, lower case, e.g. `example.com` (the path ends in `.svg`)",
            schema: { type: "string", pattern: "^[A-Za-z0-9.-]{1,253}$" },
            example: "example.com",
          },
          {
            name: "If-None-Match",
            in: "header",
            required: false,
            description: "The ETag of a badge already held: 304 when it is still current",
            schema: { type: "string" },
          },
        ],
        responses: {
          "200": {
            description: "The badge",
            headers: { ...etag, ...cache, ...cors },
            content: { "image/svg+xml": { schema: { type: "string" } } },
          },
          "304": {
            description: "Not Modified: the badge matching If-None-Match is still current",
            headers: { ...etag, ...cache, ...cors },
          },
          "404": {
            description: "Not Found: `NOT_FOUND` (not a valid host name)",
            headers: cors,
            content: { "application/json": { schema: ERROR_REF } },
          },
        },
        "x-service-errors": ["NOT_FOUND"],
      },
    },
  };
}

const GENERATOR_OPTIONS = () => ({
  title: "Security and Fraud Intelligence API",
  version: "1.0.0",
  description: API_DESCRIPTION,
  baseUrl: `${setting("SERVICE_PUBLIC_URL")?.replace(/\/+$/, "") ?? ""}/v1`,
  securitySchemes: {
    bearerAuth: { type: "http" as const, scheme: "bearer", description: "Workspace API key as a bearer token" },
    apiKeyHeader: {
      type: "apiKey" as const,
      in: "header" as const,
      name: "X-API-Key",
      description: "Workspace API key",
    },
  },
});

/** The document, built at once on first use (about a quarter of a second of CPU, holding the event loop). */
export function getOpenApiDocument(): Json {
  held.__serviceOpenApiDocument ??= completeDocument(generateOpenApiDocument(appRouter, GENERATOR_OPTIONS()) as Json);
  return held.__serviceOpenApiDocument;
}

/**
 * The same document built a router at a time, yielding to the event loop between them (each takes a few tens of
 * milliseconds), for a warm-up at start (openapi-warm.ts) that must not hold requests up. The result is identical
 * to the one-piece build (test/operate/openapi-warm.test.ts).
 */
export async function loadOpenApiDocument(): Promise<Json> {
  if (held.__serviceOpenApiDocument) return held.__serviceOpenApiDocument;
  const byRouter = new Map<string, Record<string, unknown>>();
  for (const [path, procedure] of Object.entries(appRouter._def.procedures as Record<string, unknown>)) {
    const top = path.split(".")[0]!;
    byRouter.set(top, { ...(byRouter.get(top) ?? {}), [path]: procedure });
  }
  let doc: Json | null = null;
  for (const procedures of byRouter.values()) {
    await new Promise((resolve) => setImmediate(resolve));
    if (held.__serviceOpenApiDocument) return held.__serviceOpenApiDocument;
    const part = generateOpenApiDocument(
      { _def: { procedures } } as unknown as typeof appRouter,
      GENERATOR_OPTIONS(),
    ) as Json;
    if (!doc) {
      doc = part;
      continue;
    }
    for (const [path, item] of Object.entries<Json>(part.paths ?? {}))
      doc.paths[path] = { ...(doc.paths[path] ?? {}), ...item };
    const schemas: Json = part.components?.schemas ?? {};
    if (Object.keys(schemas).length) {
      // The generator writes `schemas` first among the components: kept there, so the document is byte-identical.
      const { schemas: before, ...rest } = doc.components ?? {};
      doc.components = { schemas: { ...before, ...schemas }, ...rest };
    }
  }
  await new Promise((resolve) => setImmediate(resolve));
  held.__serviceOpenApiDocument ??= completeDocument(doc!);
  return held.__serviceOpenApiDocument;
}

/** The other media types a 200 may come in (Accept); the JSON one documents the answer, never its text forms. */
const ALTERNATIVE: Record<NonNullable<Meta["alsoProduces"]>[number], Json> = {
  "application/sarif+json": {
    schema: {
      type: "object",
      description: "A SARIF 2.1.0 log (https://docs.oasis-open.org/sarif/sarif/v2.1.0/)",
      required: ["version", "runs"],
      properties: {
        $schema: { type: "string" },
        version: { type: "string", enum: ["2.1.0"] },
        runs: { type: "array", items: { type: "object" } },
      },
    },
  },
  "text/csv": { schema: { type: "string", description: "CSV with a header row" } },
};

function documentAlternatives(ok: Json, media: NonNullable<Meta["alsoProduces"]>): void {
  const json = ok.content?.["application/json"];
  const variants: Json[] | undefined = json?.schema?.anyOf;
  // The procedure returns the answer, or the text of another media type: JSON documents only the answer.
  if (json && variants) {
    const answers = variants.filter((v) => v.type !== "string");
    json.schema = answers.length === 1 ? answers[0] : { ...json.schema, anyOf: answers };
  }
  for (const m of media) ok.content = { ...(ok.content ?? {}), [m]: ALTERNATIVE[m] };
}

/**
 * A raw-body route (Meta `rawBody`): the body is the text of one input field, sent with any Content-Type, and the
 * other input fields are query parameters (server/api/rest/handler.ts reads them so).
 */
function documentRawBody(op: Json, field: string, media: readonly RawBodyMedia[] = RAW_BODY_MEDIA): void {
  const schema: Json = op.requestBody?.content?.["application/json"]?.schema ?? {};
  const properties: Json = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const query = Object.entries<Json>(properties)
    .filter(([name]) => name !== field)
    .map(([name, s]) => ({
      name,
      in: "query",
      required: required.has(name),
      ...(s.description ? { description: s.description } : {}),
      schema: s,
    }));
  op.parameters = [...(op.parameters ?? []), ...query];
  op.requestBody = {
    required: true,
    description: `${properties[field]?.description ?? "The raw body"}: sent as it is, whatever its Content-Type.`,
    content: Object.fromEntries(media.map((m) => [m, RAW_BODY_SCHEMA[m]])),
  };
}

const RAW_BODY_MEDIA: readonly RawBodyMedia[] = [
  "text/plain",
  "application/json",
  "application/octet-stream",
  "application/x-yaml",
];
const RAW_BODY_SCHEMA: Record<RawBodyMedia, Json> = {
  "text/plain": { schema: { type: "string" } },
  "application/json": { schema: { type: "object", description: "A JSON lockfile or SBOM, as it is" } },
  "application/octet-stream": { schema: { type: "string", format: "binary" } },
  "application/x-yaml": { schema: { type: "string" } },
  "application/x-www-form-urlencoded": { schema: { type: "string" } },
};

/** What the generator cannot know, added to its output (see the top of this file). */
function completeDocument(doc: Json): Json {
  const metaByOp = new Map<string, { template: string; meta: Meta; path: string }>();
  forEachOpenApiProcedure(appRouter._def.procedures, ({ meta, path }) => {
    const m = meta as unknown as Meta & { openapi: NonNullable<Meta["openapi"]> };
    const normalized = `/${m.openapi.path.replace(/^\/|\/$/g, "")}`;
    metaByOp.set(`${m.openapi.method.toLowerCase()} ${normalized}`, { template: m.openapi.path, meta: m, path });
  });

  const paths: Json = {};
  for (const [p, ops] of Object.entries<Json>(doc.paths ?? {})) {
    let template = p;
    for (const [method, op] of Object.entries<Json>(ops)) {
      const found = metaByOp.get(`${method} ${p}`);
      if (!found) continue;
      template = found.template;
      const { meta, path: procedure } = found;
      // An empty requirement makes the key optional (anonymous use allowed, e.g. POST /go/links).
      op.security =
        meta.openapi?.protect === false
          ? [{}, { bearerAuth: [] }, { apiKeyHeader: [] }]
          : [{ bearerAuth: [] }, { apiKeyHeader: [] }];
      const responses: Json = op.responses ?? {};
      for (const code of Object.keys(responses)) {
        if (Number(code) >= 400 || code === "default") delete responses[code];
      }
      const ok = responses["200"];
      // Whatever reserves units (a metered lookup, a bulk job) answers its success with the quota headers.
      if (ok) ok.headers = { ...REQUEST_ID_HEADER, ...(meta.metered || meta.charges ? QUOTA_HEADERS : {}) };
      if (ok && meta.produces) ok.content = { [meta.produces]: { schema: { type: "string" } } };
      if (ok && meta.alsoProduces) documentAlternatives(ok, meta.alsoProduces);
      if (meta.rawBody) documentRawBody(op, meta.rawBody.field, meta.rawBody.media);
      if (meta.csvBody && op.requestBody?.content)
        op.requestBody.content["text/csv"] = {
          schema: {
            type: "string",
            description: `The \`${meta.csvBody.field}\` field's text, sent as it is`,
          },
        };
      if (ok && meta.accepted) {
        responses["202"] = { ...ok, description: ACCEPTED[meta.accepted] };
        if (meta.accepted === "always") delete responses["200"];
      }
      // The cost as the charging table states it (server/api/charging.ts).
      if (meta.metered) {
        op["x-service-capability"] = meta.metered.capability;
        op["x-service-cost"] = costOf(procedure) ?? meta.metered.cost;
        op["x-service-bulk"] = meta.metered.bulk;
      } else if (meta.charges) {
        op["x-service-cost"] = costOf(procedure) ?? meta.charges;
        op["x-service-bulk"] = bulkRuleOf(meta);
      }
      // Who may call, on which plans, at what cost: written from the contract (contract-text.ts), never typed.
      op.description = `${op.description ? `${op.description}\n\n` : ""}${accessSentence(meta)}`;
      // Every code the operation can answer (its ladder and its declared `errors`), grouped by the one table.
      const byStatus = new Map<number, ErrorCode[]>();
      for (const code of errorCodesOf(meta))
        byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
      for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b))
        responses[String(status)] = errorResponse(status, codes);
      op["x-service-errors"] = errorCodesOf(meta);
      op.responses = responses;
    }
    paths[template] = ops;
  }
  doc.paths = { ...paths, ...PUBLIC_PATHS() };
  doc.components = doc.components ?? {};
  doc.components.schemas = {
    ...(doc.components.schemas ?? {}),
    Error: {
      type: "object",
      required: ["error"],
      properties: {
        error: {
          type: "object",
          required: ["code", "message"],
          properties: { code: { type: "string", enum: Object.keys(ERROR_STATUS) }, message: { type: "string" } },
        },
      },
    },
  };
  return completeForTools(doc);
}
