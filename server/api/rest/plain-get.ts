// GET /v1/... through the plain door: the read routes (a metered lookup such as GET /v1/ip/{ip}/geo, and every
// list and read) answered from node:http's own request (scripts/rest-direct.mjs hands over the method, URL and
// headers) with plain values back: no WHATWG Request, Headers or Response, no tRPC caller (the procedure is called
// as tRPC's caller calls it, with the same context). Everything else is the REST entry's, in its order and from its
// modules: the route table (404 LOOKUP_NOT_FOUND before any authentication), input assembly from the query and
// path parameters as server/api/rest/handler.ts does it, the procedure's ladder (server/api/ladder.ts), the answer
// shaped as the route shapes it (server/api/http/respond.ts), the same observation (log line, metrics, span,
// correlation id) and the refund of an answer that could not be delivered.
//
// Taken only where the answer cannot differ from the route's: GET without a body and without an Origin (a browser's
// call keeps the route, for CORS), on a path and query of plain characters (anything a URL parser would rewrite,
// "%", "." segments, keeps the route), not /v1/openapi.json. test/foundation/plain-get.test.ts sends the same
// requests through both and compares them; the test harness (test/harness.ts) sends every such GET of the suite
// through this door, as the production server does.
import { getDb, type Db } from "../../db/client";
import { AppError } from "../../errors";
import { newId } from "../../ids";
import { authenticateRestKeyOrThrow } from "../../keys/publishable";
import { observedPlainAnswer } from "../../operate/observe";
import { logger } from "../../operate/log";
import type { Charge, Context, Principal } from "../context";
import { copyProcedureHeaders, JSON_TYPE, startingHeaders } from "../http/respond";
import { INVALID_INPUT_MARKER, undeliveredRefund } from "../ladder";
import { appRouter } from "../root";
import { restRouteTable } from "./handler";
import { matchRoute } from "./routes";
import { AnswerHeaders, plainErrorAnswer } from "./plain-answer";

/** A request as node:http gives it: header names in lower case, a repeated header as an array. */
export interface PlainGetRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  receivedAt?: number;
}

export interface PlainGetAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  undelivered: (() => void) | null;
}

// Characters a URL parser keeps as they are in a path and a query (RFC 3986 unreserved and sub-delims, ":", "@",
// "/", "?", "="): a request-target of these alone is the pathname and search the route sees.
const PLAIN_TARGET = /^\/v1\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*)?$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;

/** Whether the plain door answers this request (see the top of this file); anything else takes the route's path. */
export function takesPlainGet(method: string, url: string, headers: PlainGetRequest["headers"]): boolean {
  if (method !== "GET") return false;
  if (headers.origin !== undefined || headers["transfer-encoding"] !== undefined) return false;
  const length = headers["content-length"];
  if (length !== undefined && length !== "0") return false;
  if (!PLAIN_TARGET.test(url) || DOT_SEGMENT.test(url) || url.includes("//")) return false;
  const path = url.split("?", 1)[0]!;
  return path !== "/v1/openapi.json" && path !== "/v1/openapi.json/";
}

/** Request headers as the procedures read them (Headers#get and #has): repeated values joined with ", ". */
function requestHeaders(headers: PlainGetRequest["headers"]): Headers {
  const get = (name: string) => {
    const v = headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  };
  return { get, has: (name: string) => get(name) !== null } as unknown as Headers;
}

type Callable = (opts: {
  path: string;
  getRawInput: () => Promise<unknown>;
  ctx: Context;
  type: string;
  signal: AbortSignal | undefined;
  batchIndex: number;
}) => Promise<unknown>;

/** Answers a GET on /v1, observed as the route's answers are. */
export function answerPlainGet(req: PlainGetRequest): Promise<PlainGetAnswer> {
  const headers = requestHeaders(req.headers);
  return observedPlainAnswer(req, headers, (seen) => answerGet(req, headers, seen));
}

async function answerGet(
  req: PlainGetRequest,
  headers: Headers,
  seen: { workspaceId?: string; route?: string },
): Promise<PlainGetAnswer & { errorCode?: string }> {
  const requestId = newId("req");
  const failed = (err: unknown, own: AnswerHeaders | null, refund: PlainGetAnswer["undelivered"]) =>
    plainErrorAnswer(err, requestId, own, refund);

  const mark = req.url.indexOf("?");
  const pathname = mark < 0 ? req.url : req.url.slice(0, mark);
  const query = mark < 0 ? "" : req.url.slice(mark + 1);
  const path = pathname.slice("/v1".length) || "/";
  const match = matchRoute(restRouteTable(), "GET", path);
  if (!match)
    return failed(
      new AppError("LOOKUP_NOT_FOUND", "No such route or method. See /v1/openapi.json for the API."),
      null,
      null,
    );
  seen.route = match.route.template;

  // The input as the route assembles it (handler.ts assembleInput): the query, then the decoded path parameters.
  let input: Record<string, unknown> | undefined;
  if (match.route.takesInput) {
    input = {};
    const params = new URLSearchParams(query);
    for (const key of new Set(params.keys())) {
      const all = params.getAll(key);
      input[key] = match.route.arrayKeys.has(key) ? all : all[0];
    }
    for (const [name, raw] of Object.entries(match.rawParams)) {
      try {
        input[name] = decodeURIComponent(raw);
      } catch {
        input = { [INVALID_INPUT_MARKER]: `Path parameter ${name} is not valid percent-encoding.` };
        break;
      }
    }
  }

  let db: Db;
  try {
    db = await getDb();
  } catch (err) {
    return failed(err, null, null);
  }
  const resHeaders = new AnswerHeaders();
  const charge: { current: Charge | null } = { current: null };
  let principal: Promise<Principal> | null = null;
  const procedurePath = match.route.procedurePath;
  const ctx: Context = {
    charge,
    db,
    via: "api",
    requestId,
    resHeaders: resHeaders as unknown as Headers,
    sessionUser: null,
    requestHeaders: headers,
    authenticate: (read) => {
      if (principal && read !== "fresh") return principal;
      principal = authenticateRestKeyOrThrow(db, headers, {
        procedure: procedurePath,
        originByConfig: true,
        read,
      }).then((p) => ((seen.workspaceId = p.workspaceId), p));
      return principal;
    },
  };
  const procedure = (appRouter._def.procedures as Record<string, unknown>)[procedurePath] as Callable;
  try {
    const data = await procedure({
      path: procedurePath,
      getRawInput: async () => input,
      ctx,
      type: match.route.type,
      signal: undefined,
      batchIndex: 0,
    });
    // A procedure may ask for another success status (202 for a scan still running) through this internal header.
    const status = resHeaders.get("x-service-status") === "202" ? 202 : 200;
    resHeaders.delete("x-service-status");
    const out = new AnswerHeaders(startingHeaders(requestId));
    copyProcedureHeaders(resHeaders, out, "success");
    const contentType = resHeaders.get("content-type");
    // A string the procedure labelled with its own media type (CSV, SARIF) is the body as it is.
    const refund = undeliveredRefund(db, charge);
    if (typeof data === "string" && contentType && !/^application\/json\b/i.test(contentType))
      return { status: 200, headers: out.toRecord(), body: data, undelivered: refund };
    out.set("content-type", JSON_TYPE);
    return { status, headers: out.toRecord(), body: JSON.stringify(data) ?? "", undelivered: refund };
  } catch (err) {
    return failed(err, resHeaders, undeliveredRefund(db, charge));
  }
}
