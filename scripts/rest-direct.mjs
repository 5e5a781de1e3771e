// /v1 without Next's generic request path. The production server (scripts/server.mjs) hands a /v1 request straight
// to the compiled App Router route of app/v1/[[...path]]/route.ts (the same module instance Next itself loads, so
// the same database client, workers and metrics), instead of through Next's routing, its middleware stage and its
// response rendering. The route's handler carries the REST door (server/api/rest/plain-door.ts), which answers from
// node:http's request as it is: no web Request or Response (servePlain). A route without it (an older build, a test's
// stand-in) takes a web Request and answers a web Response, as under Next.
//
// Only paths Next would route to that handler unchanged are taken: a path holding "%" still goes through Next, whose
// proxy.ts answers undecodable paths (see proxy.ts); a "%" in the query alone does not (the door reads the query).
// Nor does a query that is not percent-encoded UTF-8 (`?version=%ff`) on a path whose "%" escapes all decode: Next
// would rewrite that query to the U+FFFD it reads before the door could refuse it, so such a request goes to the
// door as sent, where it is refused as any other undecodable query is (after authentication, free). Anything else
// (pages, /api, /docs, probes) is Next's.
import { createRequire } from "node:module";
import path from "node:path";
import { undecodableQueryParameter } from "../server/api/rest/query-text.mjs";
import { BODY_READ, plainSegments, sendError } from "./http-front.mjs";

const require = createRequire(import.meta.url);
const ROUTE_FILE = path.join("server", "app", "v1", "[[...path]]", "route.js");
const DIRECT_PATH = /^\/v1(?:[/?]|$)/;
// What Next answers its own way, so it stays on Next's path: "." and ".." segments (Next normalises them, and
// proxy.ts refuses the encoded ones), and a backslash or an empty segment ("//") in the path (Next redirects).
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;
const ODD_PATH = /\\|\/\//;

/**
 * The compiled route's method handlers, loaded from the build folder after `app.prepare()`; null when the build
 * has no such route (then every request goes through Next).
 */
export function loadRestRoute(distDir) {
  try {
    const mod = require(path.join(distDir, ROUTE_FILE));
    const userland = mod?.routeModule?.userland ?? mod?.userland ?? null;
    return userland && typeof userland.GET === "function" ? userland : null;
  } catch {
    return null;
  }
}

/**
 * Whether the front may answer this request through the route directly. `bodyRead`: the front has read and dropped
 * the request's body (http-front.mjs BODY_READ), so it must not go to Next, which would wait for that body.
 */
export function takesDirect(url, bodyRead = false) {
  const mark = url.indexOf("?");
  const path = mark < 0 ? url : url.slice(0, mark);
  if (!DIRECT_PATH.test(url) || DOT_SEGMENT.test(url) || ODD_PATH.test(path)) return false;
  if (!path.includes("%")) return true;
  if (bodyRead) return plainSegments(path);
  // A "%" in the path: Next's, unless the query is one the door refuses (server/api/rest/query-text.mjs), which Next
  // would rewrite (an escape that is not UTF-8, `?version=%ff`, reaches the route as the U+FFFD it reads). Such a
  // request is the door's when its path is one Next routes unchanged: every escape decodes, and none to "." or ".."
  // (those stay Next's, whose proxy.ts answers them 404 before anything else).
  return mark >= 0 && undecodableQueryParameter(url.slice(mark + 1)) !== null && plainSegments(path);
}

/**
 * The production server's choice for one request (scripts/server.mjs, and the tests wired as it is): the compiled
 * route directly when `takesDirect` says so (a request whose body the front dropped included), else `next` (Next's
 * own handler). `route` null (a build without the route) always means `next`.
 */
export function directOr(route, next) {
  return (req, res) =>
    route && takesDirect(req.url ?? "/", req[BODY_READ] === true) ? serveDirect(route, req, res) : next(req, res);
}

const FORWARDED = ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "x-forwarded-for"];

/**
 * The x-forwarded-* value Next's server fills in for `name` when the client sent none (base-server.js), from the
 * connection; undefined for any other name or when the connection has no such value.
 */
function forwardedDefault(req, name) {
  switch (name) {
    case "x-forwarded-host":
      return req.headers.host || undefined;
    case "x-forwarded-proto":
      return req.socket?.encrypted ? "https" : "http";
    case "x-forwarded-port":
      return req.socket?.localPort ? String(req.socket.localPort) : undefined;
    case "x-forwarded-for":
      return req.socket?.remoteAddress || undefined;
  }
  return undefined;
}

/**
 * The request's headers as the route sees them: from req.headers, not rawHeaders (the front, http-front.mjs, may
 * have replaced a value there), with the x-forwarded-* headers as Next's server fills them in when the client sent
 * none, so the route sees the same request either way. Lower-case names; repeated values as arrays. The REST door
 * gets the same without a copy (servePlain: req.headers, and forwardedDefault for a header the client did not send).
 */
function forwardedHeaders(req) {
  const headers = { ...req.headers };
  for (const name of FORWARDED) {
    if (headers[name] !== undefined) continue;
    const value = forwardedDefault(req, name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

function webRequest(req, origin) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(forwardedHeaders(req))) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody =
    req.method !== "GET" &&
    req.method !== "HEAD" &&
    (req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] ?? "0") !== "0");
  return new Request(origin + req.url, {
    method: req.method,
    headers,
    body: hasBody ? bodyStream(req) : undefined,
    duplex: hasBody ? "half" : undefined,
  });
}

/**
 * The request body as a web stream that reads only as fast as the route consumes it (one chunk ahead), so a body
 * the route never reads (a refusal before the body, an unknown route) is never buffered. Cancelling (the route's
 * byte cap) stops reading without destroying the socket, so the refusal can still be written; serveDirect then
 * closes the connection, since the rest of that body was never read.
 */
function bodyStream(req) {
  // Once the route cancelled the stream (or it ended), nothing more is handed to it: the rest of the body is
  // dropped by discardUnread, and its end or error must not touch the closed controller.
  let open = true;
  return new ReadableStream(
    {
      start(controller) {
        req.on("data", (chunk) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.on("end", () => {
          if (!open) return;
          open = false;
          controller.close();
        });
        req.on("error", (err) => {
          if (!open) return;
          open = false;
          controller.error(err);
        });
        req.pause();
      },
      pull() {
        if (open) req.resume();
      },
      cancel() {
        open = false;
        req.pause();
      },
    },
    { highWaterMark: 1 },
  );
}

const HOST = /^[A-Za-z0-9.\-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/** The origin the request URL is built on, as Next builds it: the Host header when it is a well-formed host. */
function originOf(req) {
  const host = req.headers.host;
  return `http://${host && HOST.test(host) ? host : "localhost"}`;
}

/** The refund a charged answer carries (server/api/rest/undelivered.ts), called when it cannot be delivered. */
const UNDELIVERED = Symbol.for("service.rest.undelivered");

/**
 * Whether an answer can still reach the client: its connection is open and writable (the request's socket: a
 * pipelined answer waiting behind an earlier one has no socket of its own yet).
 */
const deliverable = (req, res) => !res.destroyed && !req.socket.destroyed && req.socket.writable;

/**
 * Answers one /v1 request: through the REST door the route's handler carries for its method (`plain`, the production
 * path: server/api/rest/plain-door.ts), else through the handler itself as a web Request. Errors become the spec's
 * 500 body. An answer whose client is gone before it is written, or whose write fails, gives back the units it was
 * charged.
 */
export async function serveDirect(route, req, res) {
  const plain = route[req.method]?.plain;
  if (plain) return servePlain(plain, req, res);
  let undelivered = null;
  try {
    const handler = route[req.method];
    const response = await handler(webRequest(req, originOf(req)));
    undelivered = typeof response[UNDELIVERED] === "function" ? response[UNDELIVERED] : null;
    if (!deliverable(req, res)) {
      undelivered?.();
      return res.destroy();
    }
    if (undelivered) res.once("close", () => res.writableFinished || undelivered());
    const body = Buffer.from(await response.arrayBuffer());
    const headers = {};
    response.headers.forEach((v, k) => {
      if (k !== "set-cookie") headers[k] = v;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length) headers["set-cookie"] = cookies;
    // A HEAD answer states the length of the body a GET would have had, and sends none.
    if (response.status !== 204 && response.status !== 304) headers["content-length"] = String(body.length);
    discardUnread(req, res);
    res.writeHead(response.status, headers);
    res.end(req.method === "HEAD" || body.length === 0 ? undefined : body);
  } catch (err) {
    reportDirectError(err);
    // A charged answer that was never sent is given back (the 500 below is not it).
    if (!res.headersSent) undelivered?.();
    if (res.headersSent) return res.destroy();
    discardUnread(req, res);
    sendError(res, 500, "INTERNAL_ERROR", "Internal error.");
  }
}

/**
 * A /v1 request that threw past the door. An invalid setting (ConfigurationError) met before the start-up finished is
 * not said here: the start-up's configuration check says it once and stops the server (scripts/server.mjs), and the
 * start-up's own request for the OpenAPI document (scripts/startup-gate.mjs) could reach the setting first and print
 * its stack before that message. Once started, every error is said.
 */
function reportDirectError(err) {
  if (err?.name === "ConfigurationError" && !globalThis.__serviceProcessState?.started) return;
  console.error("[/v1 direct]", err);
}

/**
 * Whether the route's REST door answers this request without its database (an unknown route or method, a preflight:
 * plain-door.ts answersWithoutDatabase), judged on the request as servePlain hands it over; false for a request the
 * front does not take directly or a route without that door.
 */
export function answeredWithoutDatabase(route, req) {
  if (!route || !takesDirect(req.url ?? "/")) return false;
  const judge = route[req.method]?.plain?.answersWithoutDatabase;
  if (typeof judge !== "function") return false;
  return judge({
    method: req.method,
    url: req.url,
    headers: req.headers,
    missingHeader: (name) => forwardedDefault(req, name),
    base: originOf(req),
  });
}

/**
 * The route label the REST door would count this request under (plain-door.ts routeLabelOf: a template, the route a
 * preflight asks about, "/openapi.json" or "unmatched"); "unmatched" without a route that has the door.
 */
export function routeLabel(route, req) {
  const label = route?.GET?.plain?.routeLabel;
  if (typeof label !== "function") return "unmatched";
  return label({
    method: req.method,
    url: req.url ?? "/",
    headers: req.headers,
    missingHeader: (name) => forwardedDefault(req, name),
    base: originOf(req),
  });
}

/**
 * Answers a /v1 request through the REST door (server/api/rest/plain-door.ts): it gets the method, target and
 * headers as node:http gives them and a reader of the body, which it calls, with the route's cap, only for a route
 * that reads one (bodyReader); its status, headers and body are written as they are (HEAD: the length, no body),
 * with the same refund of an answer that cannot be delivered as serveDirect's, and a body left unread is drained.
 */
async function servePlain(plain, req, res) {
  const receivedAt = performance.now();
  let undelivered = null;
  try {
    const answer = await plain.answer({
      method: req.method,
      url: req.url,
      headers: req.headers,
      missingHeader: (name) => forwardedDefault(req, name),
      body: bodyReader(req),
      base: originOf(req),
      receivedAt,
    });
    undelivered = answer.undelivered;
    if (!deliverable(req, res)) {
      undelivered?.();
      return res.destroy();
    }
    if (undelivered) res.once("close", () => res.writableFinished || undelivered());
    const bytes = Buffer.from(answer.body);
    const headers = { ...answer.headers };
    if (answer.status !== 204 && answer.status !== 304) headers["content-length"] = String(bytes.length);
    discardUnread(req, res);
    res.writeHead(answer.status, headers);
    res.end(req.method === "HEAD" || bytes.length === 0 ? undefined : bytes);
  } catch (err) {
    reportDirectError(err);
    // A charged answer that was never sent is given back (the 500 below is not it).
    if (!res.headersSent) undelivered?.();
    if (res.headersSent) return res.destroy();
    discardUnread(req, res);
    sendError(res, 500, "INTERNAL_ERROR", "Internal error.");
  }
}

/**
 * The request body as the REST door reads it (server/api/http/respond.ts BodyReader), read once: its bytes up to
 * `maxBytes`; null when its declared Content-Length or the bytes that arrive go past it (reading stops there, and
 * the rest is drained after the answer: discardUnread); "broken" when the request ends without it (the client went
 * away). A request that declares no body has none.
 */
function bodyReader(req) {
  return (maxBytes) =>
    new Promise((resolve) => {
      if (Number(req.headers["content-length"] ?? "0") > maxBytes) return resolve(null);
      if (req.readableEnded) return resolve(Buffer.alloc(0));
      if (req.destroyed) return resolve("broken");
      const chunks = [];
      let size = 0;
      const settle = (value) => {
        req.off("data", onData);
        req.off("end", onEnd);
        req.off("error", onGone);
        req.off("close", onGone);
        resolve(value);
      };
      const onData = (chunk) => {
        size += chunk.length;
        if (size > maxBytes) {
          req.pause();
          return settle(null);
        }
        chunks.push(chunk);
      };
      const onEnd = () => settle(Buffer.concat(chunks));
      const onGone = () => settle("broken");
      req.on("data", onData);
      req.once("end", onEnd);
      req.once("error", onGone);
      req.once("close", onGone);
    });
}

/** Past this many bytes dropped, a body left unread is no longer drained: its connection is closed. */
export const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;
/** How long a connection closed for an over-long unread body keeps reading (and dropping) before it is cut. */
const LINGER_MS = 5_000;

/**
 * A body the route left unread (refused before reading it, or over its byte cap) is read and dropped, keeping
 * nothing, as Node's server does for any unread body: the client can finish sending and reads the answer (closing
 * the connection on it at once would reset a client still writing, which then may never see the answer). Up to
 * DRAIN_LIMIT_BYTES, three times the largest body any route reads (a 10 MB lockfile): past that, once the answer is
 * written (`res` finished; a pipelined answer waits for the ones before it), the connection is closed for writing and
 * the rest is still read and dropped for LINGER_MS, as a lingering close does, so a client that reads only after
 * sending can still stop and read it; then it is cut. (Node's requestTimeout also ends any upload after 300 s.)
 */
function discardUnread(req, res) {
  if (req.complete || req.readableEnded) return;
  req.removeAllListeners("data");
  let dropped = 0;
  let closing = false;
  req.on("data", (chunk) => {
    dropped += chunk.length;
    if (closing || dropped <= DRAIN_LIMIT_BYTES) return;
    closing = true;
    const linger = () => {
      const socket = req.socket;
      if (!socket || socket.destroyed) return;
      socket.end();
      setTimeout(() => socket.destroy(), LINGER_MS).unref();
    };
    if (res.writableFinished) linger();
    else {
      res.once("finish", linger);
      res.once("close", () => res.writableFinished || req.socket?.destroy());
    }
  });
  req.resume();
}
