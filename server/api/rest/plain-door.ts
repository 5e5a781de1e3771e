// The REST API at /v1: one door for every route and method. Built once per process over the same procedures as the
// dashboard, with trpc-to-openapi's meta and document generator. It answers from plain values: the method, the
// request target, the headers by lower-case name and a body reader (BodyReader), and gives back the status, headers
// and body as plain values. The production server (scripts/rest-direct.mjs) hands it node:http's request with a
// reader of its body; the route's handler (./handler.ts, under `next dev`, Next's own request path and the tests)
// hands it a web Request the same way. No WHATWG Request, Headers or Response on the production path, no tRPC
// caller: the procedure is called as tRPC's caller calls it, with the same context, so every middleware of its
// ladder runs (server/api/trpc.ts, server/api/ladder.ts), the output step included (SERVICE_OUTPUT_VALIDATION).
//
// Order of work per request, as the spec requires: route lookup (404 LOOKUP_NOT_FOUND, before any authentication or
// body) -> CORS (403 ORIGIN_FORBIDDEN; a preflight answered here) -> the ladder's first refusals that need no read (no
// usable key, a secret key from a forbidden origin: answered here, before the body, as the ladder answers them; so a
// request without a key is answered 401 even while the database is out) -> input assembly (query, body under the
// route's cap, decoded when compressed, path parameters; a problem travels to the ladder's validation step) -> the
// procedure's ladder (auth, key status, capability, bulk, validation, burst limit, reservation, work) -> the answer
// shaped as server/api/http/respond.ts shapes every answer (202 from x-service-status, a non-JSON body as the procedure
// labelled it, quota headers on a success only) -> the same observation (server/operate/observe.ts observedPlainAnswer:
// log line, metrics, span, correlation id) and the refund of an answer that could not be delivered (`undelivered`,
// server/api/rest/undelivered.ts).
//
// Nothing is left to another path: a browser's call (Origin, preflight), a compressed body, HEAD (a 404 whose body
// the server does not send) and /v1/openapi.json are answered here. A request target a URL parser would rewrite
// ("%", "." segments, a backslash, characters outside RFC 3986) is read through WHATWG URL, as the route read it;
// the production server sends such targets through Next anyway (scripts/rest-direct.mjs takesDirect).
// test/foundation/plain-door.test.ts holds node:http's way in and the web Request's to the same bytes and writes.
import { getDb, type Db } from "../../db/client";
import { AppError } from "../../errors";
import { requestOrigin } from "../../http/origin";
import { newId } from "../../ids";
import { authenticateRestKeyOrThrow, originRefusal, restKeyRefusal } from "../../keys/publishable";
import { observedPlainAnswer, type Seen } from "../../operate/observe";
import { registerBulkProcedures } from "../bulk-procedures";
import { invokeProcedure } from "../invoke";
import type { Charge, Context, Principal } from "../context";
import {
  BROKEN_BODY,
  copyProcedureHeaders,
  JSON_TYPE,
  jsonBodyOf,
  rawTextOf,
  startingHeaders,
  tooLargeMessage,
  type BodyReader,
} from "../http/respond";
import { INVALID_INPUT_MARKER, undeliveredRefund } from "../ladder";
import { appRouter } from "../root";
import { admitsCallerFirst } from "../trpc";
import { bodyEncodingOf, decodeBodyBytes } from "./body-encoding";
import { bodyRulesOf, rawBodyOf } from "./body-rules";
import {
  corsResponseHeaders,
  originAllowed,
  originAllowedFor,
  originNeedsDatabase,
  requestedHeadersAllowed,
} from "./cors";
import { getOpenApiDocument } from "./openapi";
import { AnswerHeaders, plainErrorAnswer } from "./plain-answer";
import { buildRouteTable, matchRoute, type RestRoute } from "./routes";
import { readQueryParameters } from "./query-params";

// Bulk jobs check lines against, and run items through, this bundle's procedures (server/bulk/procedures.ts).
registerBulkProcedures();

export type { BodyReader };

/** A request as node:http gives it: header names in lower case, a repeated header as an array. */
export interface PlainRequest {
  method: string;
  /** The request target: the path and query as sent. */
  url: string;
  /** node:http's `req.headers`: lower-case names, a repeated header as an array. */
  headers: Record<string, string | string[] | undefined>;
  /**
   * The value of a header the request does not carry, if the server supplies one: the x-forwarded-* values Next's
   * server fills in when the client sent none (scripts/rest-direct.mjs forwardedDefault), read only when asked for.
   */
  missingHeader?: (name: string) => string | undefined;
  /** The body, whole (its declared Content-Length counts against the cap as the bytes do), or a reader of it. */
  body?: Buffer | BodyReader;
  /** The origin the request was addressed to as the server builds its URL (`http://<Host>`); default localhost. */
  base?: string;
  /** performance.now() when the request arrived, before its body was read (the duration observed counts from it). */
  receivedAt?: number;
}

export interface PlainAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Empty for a 204. */
  body: string;
  /** Gives a charged request's units back when its answer cannot be delivered (undelivered.ts); else null. */
  undelivered: (() => void) | null;
}

/** What the door reads of a request, whichever server carried it. */
export interface DoorRequest {
  method: string;
  url: string;
  headers: Pick<Headers, "get" | "has">;
  body: BodyReader;
  base: string;
  receivedAt?: number;
}

const BASE = "/v1";

let routes: RestRoute[] | null = null;

/** The registered routes, built once per process. */
export function restRouteTable(): RestRoute[] {
  routes ??= buildRouteTable(appRouter);
  return routes;
}

/** The route's procedure in the router. */
const procedureOf = (route: RestRoute): unknown =>
  (appRouter._def.procedures as Record<string, unknown>)[route.procedurePath];

const notFound = () => new AppError("LOOKUP_NOT_FOUND", "No such route or method. See /v1/openapi.json for the API.");

/** Whether the request asks for the OpenAPI document (`GET /v1/openapi.json`, a trailing slash allowed). */
const asksForDocument = (method: string, path: string) =>
  method === "GET" && (path === "/openapi.json" || path === "/openapi.json/");

/** Request headers as the procedures read them (Headers#get and #has): repeated values joined with ", ". */
export function headerReader(
  headers: PlainRequest["headers"],
  missing?: PlainRequest["missingHeader"],
): Pick<Headers, "get" | "has"> {
  const get = (name: string) => {
    const lower = name.toLowerCase();
    const v = headers[lower] ?? missing?.(lower);
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  };
  return { get, has: (name: string) => get(name) !== null };
}

/** A body already read, as the reader a route reads it with: its declared length and its bytes under the cap. */
function bufferReader(body: Buffer | undefined, headers: Pick<Headers, "get">): BodyReader {
  return async (maxBytes) => {
    if (Number(headers.get("content-length") ?? "0") > maxBytes) return null;
    if (!body) return Buffer.alloc(0);
    return body.length > maxBytes ? null : body;
  };
}

/**
 * Whether the door answers this request without reading its database: the OpenAPI document, an unknown route or
 * method (404 LOOKUP_NOT_FOUND) and a preflight (its origin judged by the settings alone, or refused before any
 * route's allowance is read). While start-up waits for a database that cannot be reached, the production front hands such a
 * request to the door, which answers it as it does once started, and answers every other one 503
 * (scripts/startup-gate.mjs). The same steps as `answer` below, in the same order, without answering.
 */
export function answersWithoutDatabase(req: PlainRequest): boolean {
  const base = req.base ?? "http://localhost";
  const target = targetOf(req.url, base);
  if (!target) return true;
  const method = req.method.toUpperCase();
  // The document is built from the procedures and the settings alone.
  if (asksForDocument(method, target.path)) return true;
  const headers = headerReader(req.headers, req.missingHeader);
  if (method !== "OPTIONS") return matchRoute(restRouteTable(), method, target.path) === null;
  const wanted = headers.get("access-control-request-method")?.toUpperCase();
  const preflighted = wanted ? matchRoute(restRouteTable(), wanted, target.path) : null;
  const origin = headers.get("origin");
  if (!preflighted || !origin) return true;
  const own = requestOrigin({ url: base + req.url, headers: headers as Headers }) ?? new URL(base).origin;
  return !originNeedsDatabase(preflighted.route.procedurePath, originAllowed(origin, own));
}

/**
 * The route label the door's observation gives this request on /metrics and in its log line (a route's template, the
 * route a preflight asks about, "/openapi.json", or "unmatched"), found by the same steps as `answer` below. While
 * start-up waits for the database the production front answers a known route 503 itself and counts it under this
 * label (scripts/startup-gate.mjs), as the running server counts an outage's 503.
 */
export function routeLabelOf(req: Omit<PlainRequest, "body">): string {
  const target = targetOf(req.url, req.base ?? "http://localhost");
  if (!target) return "unmatched";
  const method = req.method.toUpperCase();
  if (asksForDocument(method, target.path)) return "/openapi.json";
  const wanted =
    method === "OPTIONS"
      ? headerReader(req.headers, req.missingHeader).get("access-control-request-method")?.toUpperCase()
      : method;
  return (wanted && matchRoute(restRouteTable(), wanted, target.path)?.route.template) || "unmatched";
}

/** Answers one /v1 request given as node:http gives it, observed as every answer of the API is. */
export function answerPlain(req: PlainRequest): Promise<PlainAnswer> {
  const headers = headerReader(req.headers, req.missingHeader);
  const body = typeof req.body === "function" ? req.body : bufferReader(req.body, headers);
  return answerRest({
    method: req.method,
    url: req.url,
    headers,
    body,
    base: req.base ?? "http://localhost",
    receivedAt: req.receivedAt,
  });
}

/** Answers one /v1 request (see the top of this file), observed: log line, metrics, span, correlation id. */
export function answerRest(req: DoorRequest): Promise<PlainAnswer> {
  return observedPlainAnswer(req, req.headers, (seen) => answer(req, seen));
}

// Characters a URL parser keeps as they are in a path and a query (RFC 3986 unreserved and sub-delims, ":", "@",
// "/", "?", "="): a request target of these alone, without "." segments, is the pathname and search a URL gives.
const PLAIN_TARGET = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)?$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;

/** The request target's path (without /v1) and query, as the route's `new URL(req.url)` reads them. */
function targetOf(url: string, base: string): { path: string; query: string } | null {
  let pathname: string;
  let query: string;
  if (PLAIN_TARGET.test(url) && !DOT_SEGMENT.test(url)) {
    const mark = url.indexOf("?");
    pathname = mark < 0 ? url : url.slice(0, mark);
    query = mark < 0 ? "" : url.slice(mark + 1);
  } else {
    try {
      const parsed = new URL(base + url);
      pathname = parsed.pathname;
      query = parsed.search.slice(1);
    } catch {
      return null;
    }
  }
  const path = pathname.startsWith(BASE) ? pathname.slice(BASE.length) || "/" : pathname;
  return { path, query };
}

async function answer(req: DoorRequest, seen: Seen): Promise<PlainAnswer & { errorCode?: string }> {
  const requestId = newId("req");
  const out = new AnswerHeaders(startingHeaders(requestId));
  const failed = (err: unknown, own: AnswerHeaders | null = null, refund: PlainAnswer["undelivered"] = null) =>
    plainErrorAnswer(err, out, requestId, own, refund);
  const method = req.method.toUpperCase();
  const { headers } = req;
  const origin = headers.get("origin");
  // This service's own origin (server/http/origin.ts): a page of it needs no listing in SERVICE_ALLOWED_ORIGINS.
  const ownOrigin = () =>
    requestOrigin({ url: req.base + req.url, headers: headers as Headers }) ?? new URL(req.base).origin;

  try {
    const target = targetOf(req.url, req.base);
    if (!target) throw notFound();
    const { path, query } = target;

    if (asksForDocument(method, path)) {
      seen.route = "/openapi.json";
      out.set("Cache-Control", "public, max-age=300");
      if (origin) out.set("Access-Control-Allow-Origin", "*");
      out.set("content-type", JSON_TYPE);
      return { status: 200, headers: out.toRecord(), body: JSON.stringify(getOpenApiDocument()), undelivered: null };
    }

    if (method === "OPTIONS") {
      // Preflight: unmetered, authorizes nothing; only registered route+method pairs and the four headers.
      const wanted = headers.get("access-control-request-method")?.toUpperCase();
      const preflighted = wanted ? matchRoute(restRouteTable(), wanted, path) : null;
      if (!wanted || !preflighted) throw notFound();
      // Counted under the route it asks about, whether its origin is refused or accepted (a refusal is no "unmatched").
      seen.route = preflighted.route.template;
      if (
        !origin ||
        !(await originAllowedFor(preflighted.route.procedurePath, origin, originAllowed(origin, ownOrigin())))
      )
        throw originRefusal();
      if (!requestedHeadersAllowed(headers.get("access-control-request-headers"))) {
        throw new AppError(
          "ORIGIN_FORBIDDEN",
          "Only the Authorization, Content-Type, X-API-Key and Accept request headers are allowed.",
        );
      }
      out.setAll(corsResponseHeaders(origin));
      out.set("Access-Control-Allow-Methods", wanted);
      out.set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-API-Key, Accept");
      out.set("Access-Control-Max-Age", "600");
      out.set("Vary", "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
      return { status: 204, headers: out.toRecord(), body: "", undelivered: null };
    }

    const match = matchRoute(restRouteTable(), method, path);
    if (!match) {
      // A listed origin (or this service's own) can read the 404's words; a route's own allowance (a publishable
      // key's origins) needs a route, so it cannot widen this.
      if (origin && originAllowed(origin, ownOrigin())) out.setAll(corsResponseHeaders(origin));
      throw notFound();
    }
    seen.route = match.route.template;

    const originByConfig = !origin || originAllowed(origin, ownOrigin());
    if (origin) {
      if (!(await originAllowedFor(match.route.procedurePath, origin, originByConfig))) throw originRefusal();
      out.setAll(corsResponseHeaders(origin));
    }

    // The ladder's first step refuses a request without a usable key, or a secret key's from a forbidden origin,
    // before anything is read (restKeyRefusal, the same refusal authenticateRestKeyOrThrow gives): answered here
    // without reading the body or calling the procedure, which would give the same answer at more cost.
    if (admitsCallerFirst(procedureOf(match.route))) {
      const refusal = restKeyRefusal(headers, originByConfig);
      if (refusal) return failed(refusal);
    }

    const input = match.route.takesInput
      ? await assembleInput(req, method, query, match.route, match.rawParams, seen)
      : undefined;
    const db = await getDb();
    return await runProcedure(db, match.route, input, req, { requestId, out, originByConfig, seen, failed });
  } catch (err) {
    return failed(err);
  }
}

/** Calls the route's procedure as tRPC's caller does (server/api/invoke.ts), and shapes its answer or its error. */
async function runProcedure(
  db: Db,
  route: RestRoute,
  input: Record<string, unknown> | undefined,
  req: DoorRequest,
  a: {
    requestId: string;
    out: AnswerHeaders;
    originByConfig: boolean;
    seen: { workspaceId?: string; admitted?: boolean };
    failed: (err: unknown, own: AnswerHeaders | null, refund: PlainAnswer["undelivered"]) => PlainAnswer;
  },
): Promise<PlainAnswer & { errorCode?: string }> {
  const { out, seen } = a;
  const resHeaders = new AnswerHeaders();
  const charge: { current: Charge | null } = { current: null };
  let principal: Promise<Principal> | null = null;
  const procedurePath = route.procedurePath;
  const ctx: Context = {
    charge,
    db,
    via: "api",
    requestId: a.requestId,
    resHeaders: resHeaders as unknown as Headers,
    sessionUser: null,
    requestHeaders: req.headers as Headers,
    authenticate: (read) => {
      if (principal && read !== "fresh") return principal;
      principal = authenticateRestKeyOrThrow(db, req.headers, {
        procedure: procedurePath,
        originByConfig: a.originByConfig,
        read,
      }).then((p) => ((seen.workspaceId = p.workspaceId), p));
      return principal;
    },
  };
  const procedure = procedureOf(route);
  try {
    // As tRPC's caller calls it, every middleware of its ladder included, without the caller's costly copies (invoke.ts).
    const data = await invokeProcedure(procedure, {
      path: procedurePath,
      getRawInput: async () => input,
      ctx,
      type: route.type,
      signal: undefined,
      batchIndex: 0,
    });
    // A procedure may ask for another success status (202 for a scan still running) through this internal header.
    const status = resHeaders.get("x-service-status") === "202" ? 202 : 200;
    resHeaders.delete("x-service-status");
    copyProcedureHeaders(resHeaders, out, "success");
    const contentType = resHeaders.get("content-type");
    const refund = undeliveredRefund(db, charge);
    // A string the procedure labelled with its own media type (CSV, SARIF) is the body as it is.
    if (typeof data === "string" && contentType && !/^application\/json\b/i.test(contentType))
      return { status: 200, headers: out.toRecord(), body: data, undelivered: refund };
    out.set("content-type", JSON_TYPE);
    return { status, headers: out.toRecord(), body: JSON.stringify(data) ?? "", undelivered: refund };
  } catch (err) {
    if (charge.current) seen.admitted = true;
    return a.failed(err, resHeaders, undeliveredRefund(db, charge));
  }
}

/**
 * Builds the procedure input from the query or body and the decoded path parameters: the query for GET, DELETE and
 * a raw-body route; a JSON body otherwise; a raw-body route's (a lockfile) or a text/csv body's one field as text.
 * The body is read under the route's cap (body-rules.ts), decoded when compressed (body-encoding.ts). A malformed
 * body or parameter is not refused here: the spec puts input validation after authentication, key status,
 * capability and bulk checks, so the problem travels as INVALID_INPUT_MARKER and the ladder refuses it at that point.
 * A body that broke off (the client went away) is noted in `seen`: the observation records the request as 499.
 */
async function assembleInput(
  req: DoorRequest,
  method: string,
  query: string,
  route: RestRoute,
  rawParams: Record<string, string>,
  seen: Seen,
): Promise<Record<string, unknown>> {
  const invalid = (message: string) => ({ [INVALID_INPUT_MARKER]: message });
  let input: Record<string, unknown> = {};
  const rules = bodyRulesOf(route.procedurePath);
  const contentType = req.headers.get("content-type");
  const rawBody = rawBodyOf(rules, contentType);
  const readsBody = method !== "GET" && method !== "DELETE";
  if (!readsBody || rawBody) {
    const read = readQueryParameters(query, route);
    if (!read.ok) return invalid(read.problem);
    input = read.value;
  }
  if (rawBody || readsBody) {
    // One cap for the bytes sent and, when compressed, for the decoded bytes.
    const maxBytes = rawBody?.maxBytes ?? rules.maxBytes;
    const encoding = bodyEncodingOf(req.headers.get("content-encoding"));
    if (!encoding.ok) return invalid(encoding.problem);
    let bytes = await req.body(maxBytes);
    if (bytes === null) return invalid(tooLargeMessage(maxBytes));
    if (bytes === "broken") {
      seen.clientGone = true;
      return invalid(BROKEN_BODY);
    }
    if (encoding.encoding) {
      const decoded = await decodeBodyBytes(bytes, encoding.encoding, maxBytes);
      if (!decoded.ok) return invalid(decoded.problem);
      bytes = decoded.bytes;
    }
    if (rawBody) {
      // The body is one field's text, whatever its Content-Type (a lockfile) or as text/csv (a list's items), never
      // merged from JSON.
      const text = rawTextOf(bytes);
      if (typeof text !== "string") return text;
      input[rawBody.field] = text;
    } else {
      const read = jsonBodyOf(bytes, contentType);
      if (!read.ok) return invalid(read.problem);
      input = read.value ?? {};
    }
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
