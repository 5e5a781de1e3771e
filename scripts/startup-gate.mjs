// Probes while the server starts (issue 22, item 11). Next runs the start-up (migrations, first-run seed, shipped
// data, workers: server/startup/index.ts) inside the first request it handles, and every request waits for it, so
// /healthz and /readyz used to hang for the whole start-up. Until start-up has finished, this answers the two
// probes itself, from the process state the start-up writes on globalThis (server/operate/state.ts): /healthz 200,
// /readyz 503 "starting" naming the step under way. Every other request goes on to Next and waits there.
import { randomBytes } from "node:crypto";
import http from "node:http";
import { countFrontAnswer } from "./http-front.mjs";
import { acceptedClientRequestId } from "../server/operate/client-request-id.mjs";
import { scriptLogger } from "./log.mjs";

/**
 * The header start-up's own request carries (see startBeforeListening), with a value only this process knows: the
 * REST door leaves such a request out of the request log and /metrics (server/operate/observe.ts), since no client
 * made it. It used to show as one `GET /openapi.json` at every start.
 */
export const STARTUP_REQUEST_HEADER = "x-service-startup-request";
const startupRequestToken = randomBytes(18).toString("base64url");
globalThis.__serviceStartupRequestToken = startupRequestToken;

function send(req, res, status, body, extra = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Request-Id": newRequestId(),
    "Content-Length": Buffer.byteLength(text),
    ...extra,
  });
  res.end(req.method === "HEAD" ? undefined : text);
}

/**
 * Wraps `handler` so the probes answer at once until start-up has finished. `answersWithoutDatabase(req)` says which
 * requests the handler answers without the database (the REST door's unknown routes and methods, and preflights:
 * scripts/rest-direct.mjs answeredWithoutDatabase); while start-up waits for the database they still go on to it.
 */
export function startupGate(inner, { answersWithoutDatabase = () => false, routeLabel = () => "unmatched" } = {}) {
  const handler = markPassed(inner);
  return (req, res) => {
    const state = globalThis.__serviceProcessState;
    if (state?.started) return handler(req, res);
    const path = (req.url ?? "/").split("?")[0];
    const probe = req.method === "GET" || req.method === "HEAD";
    if (probe && path === "/healthz") return send(req, res, 200, { status: "ok" });
    if (probe && path === "/readyz") {
      const failed = state?.startupError;
      const [status, detail] = state?.shuttingDown
        ? ["draining", "shutting down before start-up finished"]
        : failed
          ? ["not_ready", `start-up failed: ${failed}`]
          : ["starting", `starting: ${state?.startupStep ?? "loading the server's code"}`];
      return send(
        req,
        res,
        503,
        { status, checks: { startup: { status: "not_ready", detail } } },
        { "Retry-After": "1" },
      );
    }
    // While start-up waits for a database that cannot be reached (server/startup/database-wait.ts), a request would
    // wait in Next for as long as the database is down: it is answered at once, as the database outage answers. The
    // OpenAPI document, an unknown /v1 route or method (404 before anything else, as the spec orders it) and a
    // preflight need no database: the REST door answers them as it does once started.
    // The 503 of a known route counts on /metrics under its template, as the running server counts an outage's.
    if (state?.waitingForDatabase && !state.shuttingDown) {
      if (answersWithoutDatabase(req)) return handler(req, res);
      const route = API_PATH.test(req.url ?? "") ? routeLabel(req) : "unmatched";
      if (API_PATH.test(req.url ?? "")) labelled.set(req, route);
      // Its request line, as every answer of the service has one (server/operate/observe.ts writeRequestLine).
      const started = performance.now();
      const requestId = newRequestId();
      const clientId = clientRequestId(req);
      // Page loads are not logged, as the running server logs none (server/api/http/request-line.ts).
      if (API_PATH.test(req.url ?? ""))
        res.once("finish", () => writeGateRequestLine(req, res, { requestId, clientId, route, started }));
      return sendUnavailable(req, res, {
        "X-Request-Id": requestId,
        ...(clientId && { "X-Client-Request-Id": clientId }),
      });
    }
    return handler(req, res);
  };
}

const newRequestId = () => `req_${randomBytes(12).toString("base64url")}`;

/**
 * The request line of a 503 the gate gave while start-up waited for the database: the fields, message and level of
 * every other request line (server/operate/observe.ts writeRequestLine: error for a 5xx), the route as /metrics
 * counts it. Without it, a client refused meanwhile left no trace in the log.
 */
function writeGateRequestLine(req, res, { requestId, clientId, route, started }) {
  const line = {
    request_id: requestId,
    client_request_id: clientId ?? undefined,
    method: req.method,
    route,
    status: res.statusCode,
    duration_ms: Math.round((performance.now() - started) * 10) / 10,
    error_code: "UPSTREAM_UNAVAILABLE",
  };
  scriptLogger().error(line, "request");
}
// The client's correlation id as every other answer accepts it.
const clientRequestId = (req) => acceptedClientRequestId(req.headers["x-request-id"]);

const UNAVAILABLE = "The service is starting and cannot reach its database yet. Try again in a few seconds.";

function sendUnavailable(req, res, ids) {
  const extra = { "Retry-After": "5", ...ids };
  const html = /\btext\/html\b/.test(req.headers.accept ?? "") && !(req.url ?? "").startsWith("/v1");
  if (!html) return send(req, res, 503, { error: { code: "UPSTREAM_UNAVAILABLE", message: UNAVAILABLE } }, extra);
  const text =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
    `<title>Starting</title></head><body><main><h1>Starting</h1><p>${UNAVAILABLE}</p></main></body></html>`;
  res.writeHead(503, {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "Content-Length": Buffer.byteLength(text),
    ...extra,
  });
  res.end(req.method === "HEAD" ? undefined : text);
}

// How long the public port may stay closed while the database opens: past it (a database that neither answers nor
// refuses), the port opens anyway and /readyz names the step that is waiting. A PostgreSQL that refuses opens it at
// its first failed attempt, while start-up waits for the database.
const PORT_CLOSED_AT_MOST_MS = 30_000;

/**
 * Starts the service behind a closed port. Next runs the start-up (server/startup/index.ts) inside the first request
 * it handles, so a request goes to `handler` through a private loopback listener; once the steps that hold the event
 * loop are done (the process state's `storeOpened`), or start-up failed or finished, or shutdown began, the private
 * listener closes and the caller opens the public port. The loading of shipped data that follows yields to requests.
 */
export async function startBeforeListening(handler) {
  const inner = http.createServer({ requireHostHeader: false }, handler);
  await new Promise((resolve) => inner.listen(0, "127.0.0.1", resolve));
  const { port } = inner.address();
  // The document's route also builds the OpenAPI document once start-up is done; the answer itself is not needed.
  // Marked as start-up's own, so that it is neither logged nor counted as a client's request.
  fetch(`http://127.0.0.1:${port}/v1/openapi.json`, { headers: { [STARTUP_REQUEST_HEADER]: startupRequestToken } })
    .then((res) => res.arrayBuffer())
    .catch(() => undefined);
  const deadline = Date.now() + PORT_CLOSED_AT_MOST_MS;
  for (;;) {
    const state = globalThis.__serviceProcessState;
    if (state?.storeOpened || state?.started || state?.startupError || state?.shuttingDown) break;
    // A database that refuses: the port opens now, and /readyz says start-up is waiting for it.
    if (state?.waitingForDatabase) break;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  inner.close();
}

const API_PATH = /^\/v1(?:[/?#]|$)/;
const passed = new WeakSet();
/** The route label of a /v1 request the gate answered 503 while start-up waited for the database. */
const labelled = new WeakMap();

/** Marks a request as handed on (to Next or the direct /v1 route), which count it themselves. */
function markPassed(handler) {
  return (req, res) => {
    passed.add(req);
    return handler(req, res);
  };
}

/**
 * Counts the /v1 requests answered before any route saw them (the front's 404 for an unknown method, a refused
 * body) in `service_http_requests_total` and `service_http_request_duration_seconds` under route="unmatched" (the
 * gate's 503 while start-up waits for the database: under the route's template), with a
 * bounded method label, so the histogram's count agrees with the counter as it does for every routed request.
 */
export function countUnrouted(server) {
  server.on("request", (req, res) => {
    if (!API_PATH.test(req.url ?? "")) return;
    const started = performance.now();
    res.on("finish", () => {
      if (passed.has(req)) return;
      const route = labelled.get(req) ?? "unmatched";
      countFrontAnswer(req.method, route, res.statusCode, (performance.now() - started) / 1000);
    });
  });
}
