// The one HTTP adapter of the service's entries: the REST API (/v1), the dashboard's tRPC endpoint (/api/trpc) and
// the account routes (/api/account/*, /api/billing/*). Every answer carries an X-Request-Id and
// `Cache-Control: private, no-store`; errors are the spec's `{ "error": { "code", "message" } }` from the one
// code-to-status table (server/errors.ts); a procedure's own response headers (quota, Retry-After) are copied,
// the quota headers on a success only; request bodies are read with a byte cap.
import { isUtf8 } from "node:buffer";
import { AppError, toErrorBody } from "../../errors";
import { readCapped } from "../../http/read-capped";
import { requestIdOf } from "../../ids";
import { logger } from "../../operate/log";
import { noteStoreOutage } from "../../operate/outage";
import { unknownFieldsProblem, type DeclaredFields } from "../input-fields";
import { readQueryParameters, type QueryKeys } from "../rest/query-params";
import { INVALID_INPUT_MARKER } from "../trpc";

/** The request's id (the proxy's, else a new one: server/ids.ts requestIdOf) and the headers every answer starts from. */
export function startResponse(req: Request): { requestId: string; headers: Headers } {
  const requestId = requestIdOf(req);
  return { requestId, headers: new Headers(startingHeaders(requestId)) };
}

/** The headers every answer starts from, by name (for an entry that answers without WHATWG Headers). */
export function startingHeaders(requestId: string): Record<string, string> {
  return { "X-Request-Id": requestId, "Cache-Control": "private, no-store" };
}

/** The Content-Type of every JSON answer. */
export const JSON_TYPE = "application/json; charset=utf-8";

export function json(status: number, body: unknown, headers: Headers): Response {
  headers.set("Content-Type", JSON_TYPE);
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers });
}

/** The error's status, body and own headers (Retry-After on 429 and 503), as an answer's parts; 5xx are logged. */
export function errorParts(err: unknown, requestId: string, where: string): ReturnType<typeof toErrorBody> {
  const parts = toErrorBody(err);
  const { status, body } = parts;
  // An unavailable upstream is expected operation (one line); anything else at 5xx is a bug (with its stack).
  if (parts.outage) noteStoreOutage(err, where);
  else if (status === 503)
    logger().warn({ request_id: requestId, where, error_code: body.error.code }, body.error.message);
  else if (status >= 500) logger().error({ request_id: requestId, where, err }, "unexpected error");
  else if (parts.checkThrew) logger().warn({ request_id: requestId, where, err }, "an input check threw");
  return parts;
}

/**
 * The error's status, body and own headers (Retry-After on 429 and 503) as a response; 5xx are logged. Its code is
 * noted in `seen`, for the request's log line (request-line.ts).
 */
export function errorResponse(
  err: unknown,
  headers: Headers,
  requestId: string,
  where: string,
  seen?: { errorCode?: string },
): Response {
  const { status, body, headers: extra } = errorParts(err, requestId, where);
  if (seen) seen.errorCode = body.error.code;
  for (const [k, v] of Object.entries(extra)) headers.set(k, v);
  return json(status, body, headers);
}

const isQuotaHeader = (name: string) => name.toLowerCase().startsWith("x-service-quota");

/**
 * Copies the headers a procedure set (ctx.resHeaders) onto the answer. A refused request consumed nothing, so
 * on an error the quota headers (and any content type the procedure chose for its success) are left out.
 */
export function copyProcedureHeaders(
  from: { forEach(fn: (value: string, name: string) => void): void } | null | undefined,
  to: Pick<Headers, "set">,
  outcome: "success" | "error",
): void {
  from?.forEach((v, k) => {
    if (outcome === "error" && (isQuotaHeader(k) || k === "content-type")) return;
    to.set(k, v);
  });
}

/** 404 LOOKUP_NOT_FOUND for a path this entry does not serve or a method it does not take (with Allow when known). */
export function notFound(headers: Headers, allow?: string, message = "No such route or method."): AppError {
  if (allow) headers.set("Allow", allow);
  return new AppError("LOOKUP_NOT_FOUND", message);
}

export const tooLargeMessage = (maxBytes: number) => `The request body is larger than ${maxBytes} bytes.`;

/** The body's bytes, or null when it declares or turns out to be longer than `maxBytes` (the rest is never buffered). */
export async function readBodyBytes(req: Request, maxBytes: number): Promise<Buffer | null> {
  if (Number(req.headers.get("content-length") ?? "0") > maxBytes) return null;
  return readCapped(req.body, maxBytes);
}

/** What a client whose upload broke off is told (it has usually gone; the answer is for the log and the metrics). */
export const BROKEN_BODY = "The request body ended before all of it arrived.";

/**
 * A request body as the REST door reads it, whatever carried it (a web Request, node:http's request): its bytes up
 * to `maxBytes`, null when it declares (Content-Length) or turns out to be longer (the rest is never buffered), or
 * "broken" when the upload broke off.
 */
export type BodyReader = (maxBytes: number) => Promise<Buffer | null | "broken">;

/**
 * readBodyBytes, with a stream that failed ("broken": the client went away in the middle of its upload, which Node
 * reports as ECONNRESET) told apart from any other failure, which would read as the database's outage.
 */
export async function readBodyOrBroken(req: Request, maxBytes: number): Promise<Buffer | null | "broken"> {
  try {
    return await readBodyBytes(req, maxBytes);
  } catch {
    return "broken";
  }
}

export type BodyRead = { ok: true; value: Record<string, unknown> | null } | { ok: false; problem: string };

/**
 * The request body as a JSON object, at most `maxBytes` long (the rest is never buffered); `value` is null for an
 * empty body. A body that is too large, not JSON, not labelled as JSON or not an object is a `problem`.
 */
export async function readJsonBody(req: Request, maxBytes: number): Promise<BodyRead> {
  const bytes = await readBodyOrBroken(req, maxBytes);
  if (bytes === null) return { ok: false, problem: tooLargeMessage(maxBytes) };
  if (bytes === "broken") return { ok: false, problem: BROKEN_BODY };
  return jsonBodyOf(bytes, req.headers.get("content-type"));
}

/** The JSON object of a body already read (see readJsonBody): null for an empty body, else a `problem`. */
export function jsonBodyOf(bytes: Buffer, contentType: string | null): BodyRead {
  // A UTF-8 byte-order mark (what Windows editors write) is no part of the JSON: RFC 8259 section 8.1 lets a parser
  // ignore it, and the dashboard's /api/trpc (fetch's Request.text()) always has. Buffer's decoding keeps it.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  const text = bytes.toString("utf8");
  if (!text.trim()) return { ok: true, value: null };
  if (!/^application\/(.+\+)?json\b/i.test(contentType ?? "")) {
    return { ok: false, problem: "Send the request body as JSON with Content-Type: application/json." };
  }
  // JSON travels as UTF-8 (RFC 8259): bytes that are not UTF-8 are refused, never read as U+FFFD and stored so.
  if (!isUtf8(bytes)) return { ok: false, problem: "The request body is not valid UTF-8: send JSON as UTF-8 text." };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, problem: "The request body is not valid JSON." };
  }
  if (!body || typeof body !== "object" || Array.isArray(body))
    return { ok: false, problem: "The request body must be a JSON object." };
  return { ok: true, value: body as Record<string, unknown> };
}

/**
 * The body as procedure input. A malformed body is not refused here: the procedure's checks that come before
 * validation (authentication, capability, bulk) come first and no unit is spent, so the problem travels as
 * INVALID_INPUT_MARKER and the procedure's ladder refuses it at the validation step (server/api/trpc.ts).
 */
export async function readProcedureInput(req: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const read = await readJsonBody(req, maxBytes);
  if (!read.ok) return { [INVALID_INPUT_MARKER]: read.problem };
  return read.value ?? {};
}

/**
 * A raw body's bytes as the text of one input field (a raw-body route: a lockfile sent as it is), whatever its
 * Content-Type: UTF-8, or UTF-16 when it starts with that byte-order mark (a byte-order mark is dropped). Bytes that
 * are not text in that encoding are the problem, as INVALID_INPUT_MARKER, like a malformed JSON body.
 */
export function rawTextOf(bytes: Buffer): string | Record<typeof INVALID_INPUT_MARKER, string> {
  const encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe ? "utf-16le" : bytes[0] === 0xfe && bytes[1] === 0xff ? "utf-16be" : "utf-8";
  // Bytes that are not text in that encoding (a surrogate written as bytes, a Latin-1 file) are refused, not read as
  // U+FFFD: the body's strings are screened as any input's (server/api/input-screen.ts).
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return {
      [INVALID_INPUT_MARKER]:
        encoding === "utf-8"
          ? "The request body is not valid UTF-8 text: save the file as UTF-8 and send it again."
          : `The request body starts with a ${encoding.toUpperCase()} byte-order mark but is not valid ${encoding.toUpperCase()} text.`,
    };
  }
}

/** The body for a route without a procedure ladder: a problem is 400 INVALID_REQUEST at once. */
export async function readJsonBodyOrThrow(req: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const read = await readJsonBody(req, maxBytes);
  if (!read.ok) throw new AppError("INVALID_REQUEST", read.problem);
  return read.value ?? {};
}

/**
 * Refuses what an account route is sent beyond what it takes (README "Requests the API reads"): the fields of its
 * JSON body, or the parameters of its query, that `takes` does not name are 400 INVALID_REQUEST naming each, as on
 * /v1. The one place the account routes do it: each reads its own query or body and calls its procedure with the
 * input it builds (the path's id among it), so the ladder's input step never sees what it was sent beyond that.
 */
export function refuseUnknownParameters(sent: Record<string, unknown>, takes: DeclaredFields): void {
  const unknown = unknownFieldsProblem(sent, takes);
  if (unknown) throw new AppError("INVALID_REQUEST", unknown);
}

/** An account route's query read as /v1 reads one (rest/query-params.ts), a problem with it 400 INVALID_REQUEST. */
export function readQueryOrThrow(req: Request, keys: QueryKeys): Record<string, unknown> {
  const query = readQueryParameters(new URL(req.url).search.slice(1), keys);
  if (!query.ok) throw new AppError("INVALID_REQUEST", query.problem);
  return query.value;
}
