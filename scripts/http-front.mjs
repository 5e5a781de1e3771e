// The node:http front of the production server (scripts/server.mjs). It answers, in the spec's terms, the few
// /v1 requests that Next.js itself would answer wrongly, and hands everything else to Next untouched:
//   - a method the API never registers (TRACE, PROPFIND, MKCOL, LOCK, SEARCH, REPORT, PURGE, ...): Next answers
//     TRACE with a text/plain 500 and the WebDAV methods with an empty 400; the spec wants 404 LOOKUP_NOT_FOUND
//     before authentication;
//   - a GET (HEAD, DELETE, OPTIONS) that carries a body: Next never reads it, so a malformed chunked body used to
//     reach Node's parser only while the lookup already ran and charged. The body is read (and dropped) first;
//     a request whose body breaks off never reaches the API;
//   - a request Node's parser refuses (an unknown method token, a malformed chunk): the spec's error body
//     instead of Node's bare "400 Bad Request", when the request line names /v1;
//   - a request target that is not a path (`OPTIONS *`, `GET *`): Next answered it with a text/plain 500
//     (ERR_INVALID_URL); and a request with two Host headers, which HTTP/1.1 says to refuse (RFC 9112, 3.2): both
//     400 INVALID_REQUEST in the spec's error body, on every path.
// A normal GET (no Content-Length, no Transfer-Encoding) costs one regular-expression test here.
import { randomBytes } from "node:crypto";

const REGISTERED_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);
const BODYLESS_METHODS = new Set(["GET", "HEAD", "DELETE", "OPTIONS"]);
// The REST handler caps bodies at 1 MB; a body on a bodyless method gets the same cap.
const MAX_IGNORED_BODY_BYTES = 1_000_000;
const API_PATH = /^\/v1(?:[/?#]|$)/;
// The entries whose every answer is JSON: the API and the account, billing and dashboard routes under /api.
const JSON_ENTRY_PATH = /^\/(?:v1|api)(?:[/?#]|$)/;

function requestId() {
  return `req_${randomBytes(12).toString("base64url")}`;
}

/** The spec's error response as raw HTTP/1.1 bytes, for a socket that has no ServerResponse (or a broken one). */
function rawError(status, reason, code, message, head = false) {
  const body = head ? "" : JSON.stringify({ error: { code, message } });
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    "Content-Type: application/json; charset=utf-8\r\n" +
    "Cache-Control: private, no-store\r\n" +
    `X-Request-Id: ${requestId()}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  );
}

/** The spec's error response, with the standard headers and a fresh request id (also used by rest-direct.mjs). */
export function sendError(res, status, code, message, head = false) {
  const body = JSON.stringify({ error: { code, message } });
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "private, no-store",
    "X-Request-Id": requestId(),
    "Content-Length": head ? 0 : Buffer.byteLength(body),
  });
  res.end(head ? undefined : body);
}

const NOT_FOUND_MESSAGE = "No such route or method. See /v1/openapi.json for the API.";
const NOT_A_PATH_MESSAGE =
  "The request target must be a path such as /v1/openapi.json (an asterisk or a URL of another scheme is not served).";
const TWO_HOSTS_MESSAGE = "The request has more than one Host header; HTTP/1.1 allows exactly one.";

function declaresBody(req) {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * Set on a request whose body the front has read and dropped (a body on a bodyless method, below). Next must not be
 * handed such a request: before its proxy stage it waits for the end of a DELETE's or OPTIONS's body
 * (body-streams.js getCloneableBody), which has passed, so the request would hang unanswered. scripts/server.mjs
 * gives it to the REST door instead (rest-direct.mjs takesDirect).
 */
export const BODY_READ = Symbol.for("service.front.bodyRead");

/**
 * Whether every segment of `path` decodes (percent-encoded UTF-8) and none is "." or ".." once decoded: a path Next
 * routes unchanged (proxy.ts answers the others 404, as the front does for a request whose body it dropped).
 */
export function plainSegments(path) {
  for (const segment of path.split("/")) {
    let decoded;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return false;
    }
    if (decoded === "." || decoded === "..") return false;
  }
  return true;
}

/** Reads and drops the body, then calls `proceed`; never calls it when the body breaks off or is too large. */
function dropBodyThen(req, res, proceed) {
  let size = 0;
  let settled = false;
  req.on("data", (chunk) => {
    size += chunk.length;
    if (size > MAX_IGNORED_BODY_BYTES && !settled) {
      settled = true;
      res.setHeader("Connection", "close");
      sendError(res, 400, "INVALID_REQUEST", `The request body is larger than ${MAX_IGNORED_BODY_BYTES} bytes.`);
      req.destroy();
    }
  });
  req.on("end", () => {
    if (settled) return;
    settled = true;
    req[BODY_READ] = true;
    proceed();
  });
  // A malformed chunk or a dropped connection: the parser's error is answered by `answerClientError`.
  req.on("error", () => {
    settled = true;
  });
  req.on("close", () => {
    settled = true;
  });
}

/**
 * The connection's own address, for the one rule on where a request came from (server/http/origin.ts reads it
 * under this name). Route handlers see no socket, so the front writes it on every request, replacing any value a
 * client sent: it cannot be forged through this server.
 */
export const PEER_ADDRESS_HEADER = "x-service-peer-address";

/**
 * Set on globalThis when this process serves through the front, so the header is believed only then: without the
 * front (`next start`, `next dev`) a client could send it (server/http/origin.ts reads this flag).
 */
export const PEER_ADDRESS_FLAG = "__servicePeerAddressFromFront";

// Paths that look like the API to a person, also in spellings Next would not route to it (/V1, /v1%2f, //v1).
const API_LIKE = /^\/+v1(?:[/?#%]|$)/i;
// A dot segment ("..", ".", also percent-encoded) anywhere in the path.
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;
// An empty segment ("//") or a backslash inside the path, which Next answers with a 308 to its cleaned spelling.
const EMPTY_SEGMENT = /\/\/|\\/;

/** Whether a path's dot segments (".", "..", percent-encoded too) resolve it onto /v1 or /api, as Next reads it. */
function resolvesOntoApi(path) {
  let resolved;
  try {
    resolved = new URL(path, "http://front.invalid").pathname;
  } catch {
    return false;
  }
  return JSON_ENTRY_PATH.test(resolved) || API_LIKE.test(resolved);
}

/**
 * Whether a path holding a backslash is /v1 or /api in the spelling Next redirects it to (backslashes as slashes,
 * runs of slashes as one, dot segments resolved): `/v1\ip`, `/\v1/ip`, `/a/..\v1/ip`, `/api\trpc`.
 */
function backslashOntoApi(path) {
  return path.includes("\\") && resolvesOntoApi(path.replace(/\\/g, "/").replace(/\/{2,}/g, "/"));
}

/** Whether Next would make the path /v1 or /api: its dot segments resolve onto them, or its backslashes do. */
function ontoApi(path) {
  return (DOT_SEGMENT.test(path) && resolvesOntoApi(path)) || backslashOntoApi(path);
}

/** A request line in absolute form (`GET http://host/v1/x HTTP/1.1`) or with leading slashes, as origin form. */
function originForm(url) {
  let out = url;
  const absolute = /^https?:\/\/[^/?#]*/i.exec(out);
  if (absolute) out = out.slice(absolute[0].length) || "/";
  return out.replace(/^\/{2,}/, "/");
}

/**
 * Credentials sent twice (two Authorization or X-API-Key headers: Node keeps only the first in `req.headers`) are
 * passed on joined, so the key check sees them all and refuses them (server/keys/authenticate.ts).
 */
function keepRepeatedCredentials(req) {
  for (const name of ["authorization", "x-api-key"]) {
    const values = req.headersDistinct?.[name];
    if (values && values.length > 1) req.headers[name] = values.join(", ");
  }
}

/**
 * Whether the request carries Host, Authorization or X-API-Key more than once: a scan of the raw header names, so a
 * request with each at most once (nearly all) never builds node's per-header arrays (`headersDistinct`).
 */
function repeatsAny(req) {
  let host = 0;
  let credentials = 0;
  const raw = req.rawHeaders ?? [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 4 && name.toLowerCase() === "host") host++;
    else if (
      (name.length === 13 && name.toLowerCase() === "authorization") ||
      (name.length === 9 && name.toLowerCase() === "x-api-key")
    )
      credentials++;
  }
  return host > 1 || credentials > 1;
}

/** The request listener: `handle(req, res)` is Next's request handler (or, in tests, the REST handler). */
export function createFront(handle) {
  globalThis[PEER_ADDRESS_FLAG] = true;
  return (req, res) => {
    req.headers[PEER_ADDRESS_HEADER] = req.socket?.remoteAddress ?? "";
    const repeats = repeatsAny(req);
    if (repeats) keepRepeatedCredentials(req);
    const url = (req.url = originForm(req.url ?? "/"));
    const path = url.split(/[?#]/, 1)[0];
    const head = req.method === "HEAD";
    if (!url.startsWith("/")) return sendError(res, 400, "INVALID_REQUEST", NOT_A_PATH_MESSAGE, head);
    if (repeats && (req.headersDistinct?.host?.length ?? 0) > 1)
      return sendError(res, 400, "INVALID_REQUEST", TWO_HOSTS_MESSAGE, head);
    if (!REGISTERED_METHODS.has(req.method)) {
      // Never Next's text/plain 500: JSON 404 for anything that looks like the API or is (or resolves onto) one of
      // the JSON entries, 405 elsewhere.
      if (API_LIKE.test(url) || JSON_ENTRY_PATH.test(url) || ontoApi(path))
        return sendError(res, 404, "LOOKUP_NOT_FOUND", NOT_FOUND_MESSAGE);
      res.writeHead(405, { "Content-Type": "text/plain; charset=utf-8", Allow: [...REGISTERED_METHODS].join(", ") });
      return res.end("Method Not Allowed\n");
    }
    if (!API_PATH.test(url)) {
      // A path spelled like the API that Next would not route to it (/V1/..., /v1%2f...), an empty or dot segment
      // under /api, dot segments that resolve onto /v1 or /api (/a/../v1/..., which Next resolved past these
      // checks) and backslashes Next would turn into such a path: never Next's HTML 404 page or a redirect to
      // another route, as under /v1.
      if (
        API_LIKE.test(url) ||
        (JSON_ENTRY_PATH.test(url) && (DOT_SEGMENT.test(path) || EMPTY_SEGMENT.test(path))) ||
        ontoApi(path)
      )
        return sendError(res, 404, "LOOKUP_NOT_FOUND", NOT_FOUND_MESSAGE, head);
    } else {
      if (!req.headers.host)
        return sendError(res, 400, "INVALID_REQUEST", "The request has no Host header; HTTP/1.1 requires one.");
      // No such route: the spec's 404 before authentication, never a redirect to another path.
      if (DOT_SEGMENT.test(path) || EMPTY_SEGMENT.test(path))
        return sendError(res, 404, "LOOKUP_NOT_FOUND", NOT_FOUND_MESSAGE);
      if (BODYLESS_METHODS.has(req.method) && declaresBody(req)) {
        // Such a request never reaches Next (BODY_READ): a path Next's proxy would refuse is refused here.
        if (path.includes("%") && !plainSegments(path))
          return sendError(res, 404, "LOOKUP_NOT_FOUND", NOT_FOUND_MESSAGE, head);
        return dropBodyThen(req, res, () => handle(req, res));
      }
    }
    return handle(req, res);
  };
}

/**
 * The server's 'clientError' listener. Node's own answer is kept for pages and for timeouts and resets; /v1 (and
 * a path spelled like it, /V1 or /v1%2f) and the JSON entries under /api get the spec's error body: 404 LOOKUP_NOT_FOUND for a method token Node cannot parse
 * (as those entries answer a method they do not take), 400 INVALID_REQUEST for anything else its parser refuses (a
 * malformed chunked body, a raw non-ASCII byte in the target, a target past the header limit among them).
 */
export function answerClientError(err, socket, previousUrl = null) {
  const inFlight = socket._httpMessage;
  if (inFlight && inFlight.req?.complete && !inFlight.writableFinished && err.code !== "ECONNRESET") {
    // Bytes after a complete request on the same connection (pipelined) broke the parser while that request is
    // still being answered: its answer goes out first, in request order, then the error for what followed.
    const url = inFlight.req.url;
    inFlight.once("finish", () => setImmediate(() => answerClientError(err, socket, url)));
    return;
  }
  const url = inFlight?.req?.url ?? requestLineTarget(err.rawPacket) ?? previousUrl;
  const canWrite = socket.writable && (!inFlight || !inFlight.headersSent);
  if (!canWrite || err.code === "ECONNRESET") return socket.destroy(err);
  const method = inFlight?.req?.method ?? requestLineMethod(err.rawPacket);
  if (url !== null && (JSON_ENTRY_PATH.test(url) || API_LIKE.test(url)) && err.code !== "ERR_HTTP_REQUEST_TIMEOUT") {
    const head = inFlight?.req?.method === "HEAD";
    const invalidMethod = err.code === "HPE_INVALID_METHOD";
    socket.end(
      invalidMethod
        ? rawError(404, "Not Found", "LOOKUP_NOT_FOUND", NOT_FOUND_MESSAGE, head)
        : rawError(
            400,
            "Bad Request",
            "INVALID_REQUEST",
            "The request could not be parsed as HTTP/1.1 (malformed body, header or request line).",
            head,
          ),
    );
    if (!inFlight) countParserRefusal(err, method, invalidMethod ? 404 : 400);
    return;
  }
  const status =
    err.code === "HPE_HEADER_OVERFLOW"
      ? "431 Request Header Fields Too Large"
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "408 Request Timeout"
        : "400 Bad Request";
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  if (!inFlight) countParserRefusal(err, method, Number(status.slice(0, 3)));
}

/**
 * Counts a request the front answered without any route seeing it on /metrics, in `service_http_requests_total` and
 * the duration histogram alike (so the histogram's count agrees with the counter): `route` says why ("unmatched":
 * no route took it; "unparsed": Node's parser refused it), and the method label is one the API uses or "other", for
 * any other token a client sends. The one place the front's own answers are counted (also scripts/startup-gate.mjs).
 */
export function countFrontAnswer(method, route, status, seconds) {
  const m = globalThis.__serviceMetrics;
  if (!m) return;
  const labels = { method: REGISTERED_METHODS.has(method) ? method : "other", route, status: String(status) };
  m.requests.inc(labels);
  m.duration.observe(labels, seconds);
}

/**
 * A request Node's HTTP parser refused (an unknown method token, a malformed header, headers too large) never reaches
 * the request listener: counted as route="unparsed", with a duration of 0 (the parser gives no start). Its callers
 * leave out a request the listener already has (a malformed chunk of its body: the route that took it counts it).
 * A request that timed out is not a parser refusal and is not counted.
 */
function countParserRefusal(err, method, status) {
  if (!String(err.code ?? "").startsWith("HPE_")) return;
  countFrontAnswer(err.code === "HPE_INVALID_METHOD" ? "other" : (method ?? "other"), "unparsed", status, 0);
}

/**
 * The server's 'connect' listener: Node hands CONNECT to it, never to the request listener (default: drop). A CONNECT
 * to /v1 is answered 404 like any method the API does not register, and counted as route="unmatched" as they are.
 */
export function answerConnect(req, socket) {
  if (!API_PATH.test(req.url ?? "")) return socket.destroy();
  socket.end(rawError(404, "Not Found", "LOOKUP_NOT_FOUND", NOT_FOUND_MESSAGE));
  countFrontAnswer(req.method, "unmatched", 404, 0);
}

function requestLineMethod(rawPacket) {
  if (!rawPacket) return null;
  return Buffer.from(rawPacket).subarray(0, 16).toString("latin1").split(" ", 1)[0] || null;
}

function requestLineTarget(rawPacket) {
  if (!rawPacket) return null;
  const line = Buffer.from(rawPacket).subarray(0, 2048).toString("latin1").split("\r\n", 1)[0];
  const parts = line.split(" ");
  return parts.length >= 2 ? parts[1] : null;
}
