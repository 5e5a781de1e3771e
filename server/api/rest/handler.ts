// The REST API at /v1. Built once per process over the same procedures as the dashboard, with
// trpc-to-openapi's meta and document generator. Order of work per request, as the spec requires:
// route lookup (404 LOOKUP_NOT_FOUND) -> CORS (403 ORIGIN_FORBIDDEN) -> input assembly -> the procedure's own
// ladder (auth, key status, capability, bulk, validation, burst limit, reservation, work) -> response shaping.
import { AppError } from "../../errors";
import { getDb } from "../../db/client";
import { requestOrigin } from "../../http/origin";
import { authenticateRestKeyOrThrow } from "../../keys/publishable";
import type { Charge, Context, Principal } from "../context";
import {
  copyProcedureHeaders,
  errorResponse,
  json,
  readProcedureInput,
  readRawBodyInput,
  startResponse,
} from "../http/respond";
import { registerBulkProcedures } from "../bulk-procedures";
import { appRouter } from "../root";
import { createCallerFactory, INVALID_INPUT_MARKER } from "../trpc";
import { bodyRulesOf, rawBodyOf } from "./body-rules";
import { decodeRequestBody } from "./body-encoding";
import { corsResponseHeaders, originAllowed, originAllowedFor, requestedHeadersAllowed } from "./cors";
import { getOpenApiDocument } from "./openapi";
import { refundIfUndelivered } from "./undelivered";
import { buildRouteTable, matchRoute, pathIsRegistered, type RestRoute } from "./routes";
import { noteRoute, noteWorkspace, withRequestObservation } from "../../operate/observe";

// Bulk jobs check lines against, and run items through, this bundle's procedures (server/bulk/procedures.ts).
registerBulkProcedures();

const BASE = "/v1";
export { MAX_BODY_BYTES } from "./body-rules";

let routes: RestRoute[] | null = null;
const createCaller = createCallerFactory(appRouter);

function routeTable(): RestRoute[] {
  routes ??= buildRouteTable(appRouter);
  return routes;
}

/** The registered routes, built once per process (the plain GET door matches against the same table). */
export const restRouteTable = routeTable;

const notFound = () => new AppError("LOOKUP_NOT_FOUND", "No such route or method. See /v1/openapi.json for the API.");

// One log line, metrics and the client's correlation id per request (server/operate/observe.ts).
export const handleRestRequest = withRequestObservation(handleRest);

async function handleRest(req: Request): Promise<Response> {
  const { requestId, headers } = startResponse();
  const url = new URL(req.url);
  const path = url.pathname.startsWith(BASE) ? url.pathname.slice(BASE.length) || "/" : url.pathname;
  const method = req.method.toUpperCase();
  const origin = req.headers.get("origin");
  // This service's own origin (server/http/origin.ts): a page of it needs no listing in SERVICE_ALLOWED_ORIGINS.
  const ownOrigin = () => requestOrigin(req) ?? url.origin;

  try {
    if (method === "GET" && (path === "/openapi.json" || path === "/openapi.json/")) {
      headers.set("Cache-Control", "public, max-age=300");
      if (origin) headers.set("Access-Control-Allow-Origin", "*");
      return json(200, getOpenApiDocument(), headers);
    }

    if (method === "OPTIONS") {
      // Preflight: unmetered, authorizes nothing; only registered route+method pairs and the four headers.
      const wanted = req.headers.get("access-control-request-method")?.toUpperCase();
      const preflighted = wanted ? matchRoute(routeTable(), wanted, path) : null;
      if (!wanted || !preflighted) throw notFound();
      if (
        !origin ||
        !(await originAllowedFor(preflighted.route.procedurePath, origin, originAllowed(origin, ownOrigin())))
      )
        throw new AppError("ORIGIN_FORBIDDEN", "This origin may not call the API from a browser.");
      const requested = req.headers.get("access-control-request-headers");
      if (!requestedHeadersAllowed(requested)) {
        throw new AppError(
          "ORIGIN_FORBIDDEN",
          "Only the Authorization, Content-Type, X-API-Key and Accept request headers are allowed.",
        );
      }
      for (const [k, v] of Object.entries(corsResponseHeaders(origin))) headers.set(k, v);
      headers.set("Access-Control-Allow-Methods", wanted);
      headers.set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-API-Key, Accept");
      headers.set("Access-Control-Max-Age", "600");
      headers.set("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
      return new Response(null, { status: 204, headers });
    }

    const match = matchRoute(routeTable(), method, path);
    if (!match) throw notFound();
    noteRoute(req, match.route.template);

    const originByConfig = !origin || originAllowed(origin, ownOrigin());
    if (origin) {
      if (!(await originAllowedFor(match.route.procedurePath, origin, originByConfig)))
        throw new AppError("ORIGIN_FORBIDDEN", "This origin may not call the API from a browser.");
      for (const [k, v] of Object.entries(corsResponseHeaders(origin))) headers.set(k, v);
    }

    const input = match.route.takesInput ? await assembleInput(req, url, match.route, match.rawParams) : undefined;
    const db = await getDb();
    const resHeaders = new Headers();
    let principal: Promise<Principal> | null = null;
    const charge: { current: Charge | null } = { current: null };
    const ctx: Context = {
      charge,
      db,
      via: "api",
      requestId,
      resHeaders,
      sessionUser: null,
      requestHeaders: req.headers,
      authenticate: (read) => {
        if (principal && read !== "fresh") return principal;
        principal = authenticateRestKeyOrThrow(db, req.headers, {
          procedure: match.route.procedurePath,
          originByConfig,
          read,
        }).then((p) => (noteWorkspace(req, p.workspaceId), p));
        return principal;
      },
    };
    const caller = createCaller(ctx) as unknown as Record<string, unknown>;
    const fn = match.route.procedurePath
      .split(".")
      .reduce<unknown>((acc, seg) => (acc as Record<string, unknown>)[seg], caller) as (i: unknown) => Promise<unknown>;
    try {
      const data = await fn(input);
      // A procedure may ask for another success status (202 for a scan still running) through this internal header.
      const status = resHeaders.get("x-service-status") === "202" ? 202 : 200;
      resHeaders.delete("x-service-status");
      copyProcedureHeaders(resHeaders, headers, "success");
      const contentType = resHeaders.get("content-type");
      // A string the procedure labelled with its own media type (CSV, SARIF) is the body as it is.
      if (typeof data === "string" && contentType && !/^application\/json\b/i.test(contentType)) {
        return refundIfUndelivered(new Response(data, { status: 200, headers }), db, charge);
      }
      return refundIfUndelivered(json(status, data, headers), db, charge);
    } catch (err) {
      copyProcedureHeaders(resHeaders, headers, "error");
      return refundIfUndelivered(errorResponse(err, headers, requestId, "rest"), db, charge);
    }
  } catch (err) {
    return errorResponse(err, headers, requestId, "rest");
  }
}

/**
 * Builds the procedure input from the query or JSON body and the decoded path parameters. A malformed body or
 * parameter is not refused here: the spec puts input validation after authentication, key status, capability
 * and bulk checks, so the problem travels as INVALID_INPUT_MARKER and the ladder refuses it at that point.
 */
async function assembleInput(
  req: Request,
  url: URL,
  route: RestRoute,
  rawParams: Record<string, string>,
): Promise<Record<string, unknown>> {
  const invalid = (message: string) => ({ [INVALID_INPUT_MARKER]: message });
  let input: Record<string, unknown> = {};
  const rules = bodyRulesOf(route.procedurePath);
  const maxBytes = rules.maxBytes;
  const rawBody = rawBodyOf(rules, req.headers.get("content-type"));
  if (route.method === "GET" || route.method === "DELETE" || rawBody) {
    for (const key of new Set(url.searchParams.keys())) {
      const all = url.searchParams.getAll(key);
      input[key] = route.arrayKeys.has(key) ? all : all[0];
    }
  }
  if (rawBody || (route.method !== "GET" && route.method !== "DELETE")) {
    // A compressed body is decoded first, its decoded size under the same cap (body-encoding.ts).
    const decoded = await decodeRequestBody(req, rawBody?.maxBytes ?? maxBytes);
    if (!decoded.ok) return invalid(decoded.problem);
    req = decoded.req;
  }
  if (rawBody) {
    // The body is one field's text, whatever its Content-Type (a lockfile) or as text/csv (a list's items), never
    // merged from JSON.
    const body = await readRawBodyInput(req, rawBody.maxBytes);
    if (typeof body !== "string") return body;
    input[rawBody.field] = body;
  } else if (route.method !== "GET" && route.method !== "DELETE") {
    input = await readProcedureInput(req, maxBytes);
    if (INVALID_INPUT_MARKER in input) return input;
  }
  for (const [name, raw] of Object.entries(rawParams)) {
    try {
      input[name] = decodeURIComponent(raw);
    } catch {
      return invalid(`Path parameter ${name} is not valid percent-encoding.`);
    }
  }
  return input;
}

export { pathIsRegistered };
