// Per-request observation of the /v1 API: one log line (the line every door writes: writeRequestLine), the request
// counter and duration histogram, refused admissions by error code, and the client's correlation id. The REST door
// (server/api/rest/plain-door.ts) notes what only it knows (the matched route template, the workspace once
// authenticated) in `seen`; the rest is its answer.
import { ASSIGNED_REQUEST_ID_HEADER } from "../ids";
import { acceptedClientRequestId } from "./client-request-id.mjs";
import { logger, requestLogger } from "./log";
import { methodLabel, metrics } from "./metrics";
import { tracing } from "./tracing";

/** The client's X-Request-Id as proxy.ts relays it (set or removed there, so a client cannot send it alone). */
export const CLIENT_REQUEST_ID_RELAY_HEADER = "x-service-client-request-id";

export function clientRequestId(headers: Pick<Headers, "get">): string | null {
  const sent = headers.get("x-request-id");
  // Behind proxy.ts the request's X-Request-Id is the service's own id (Next copies the proxy's answer headers into
  // the request); the client's, if it sent one, is in the relay header.
  if (sent !== null && sent === headers.get(ASSIGNED_REQUEST_ID_HEADER))
    return acceptedClientRequestId(headers.get(CLIENT_REQUEST_ID_RELAY_HEADER));
  return acceptedClientRequestId(sent);
}

/**
 * Whether the request is the one start-up makes itself to build the OpenAPI document (scripts/startup-gate.mjs
 * startBeforeListening): the document's route, with a header whose value only this process knows. The value serves
 * once: it is forgotten as soon as that request is seen, so nothing else can ever be left out of the log.
 */
function isStartupRequest(headers: Pick<Headers, "get">, route: string | undefined): boolean {
  const holder = globalThis as { __serviceStartupRequestToken?: string };
  const token = holder.__serviceStartupRequestToken;
  if (token === undefined || route !== "/openapi.json" || headers.get("x-service-startup-request") !== token)
    return false;
  delete holder.__serviceStartupRequestToken;
  return true;
}

export type SpanLike = {
  updateName(n: string): unknown;
  setAttribute(k: string, v: string | number): unknown;
  setStatus(s: { code: number }): unknown;
  end(): void;
};

/** Runs `work` inside the request's span (SERVER kind) when tracing is on; its database queries and upstream calls
 * become the span's children. The span is named by the route template once it is known. */
export function inRequestSpan<T>(method: string, work: (span: SpanLike | null) => Promise<T>): Promise<T> {
  const t = tracing();
  if (!t) return work(null);
  return t.tracer.startActiveSpan(`${method.toUpperCase()} /v1`, { kind: t.api.SpanKind.SERVER }, (span) => work(span));
}

/** What one answered request leaves on /metrics, in the log and on its span. */
export interface RequestObservation {
  method: string;
  /** The route's label (routeLabel): a template, "/openapi.json" or "unmatched". */
  route: string;
  /** Whether the path matched a registered route (a refusal there counts as a refused admission). */
  routed: boolean;
  status: number;
  seconds: number;
  requestId?: string;
  clientRequestId: string | null;
  workspaceId?: string;
  errorCode?: string;
  /** Units were reserved for it: an error answer after admission (a source's "not found") is no refused admission. */
  admitted?: boolean;
}

/** Counts the request, its duration and a refused admission, ends its span, and writes its log line. */
export function recordRequest(o: RequestObservation, span: SpanLike | null): void {
  const { method, route, status } = o;
  try {
    const m = metrics();
    const labels = { method: methodLabel(method), route, status: String(status) };
    m.requests.inc(labels);
    m.duration.observe(labels, o.seconds);
    // Refusals are 4xx on a known route; a 5xx happens after admission (an upstream failed) and is not one.
    // An error after its units were reserved (404 PACKAGE_NOT_FOUND, charged as an answer) was admitted.
    if (o.errorCode && o.routed && !o.admitted && method !== "OPTIONS" && status < 500)
      m.admissionsRefused.inc({ code: o.errorCode });
  } catch (err) {
    logger().warn({ err }, "recording request metrics failed");
  }
  const line: RequestLine = {
    request_id: o.requestId,
    client_request_id: o.clientRequestId ?? undefined,
    method,
    route,
    status,
    duration_ms: durationMs(o.seconds),
    workspace_id: o.workspaceId,
    error_code: o.errorCode,
  };
  if (span) {
    span.updateName(`${method} ${route}`);
    span.setAttribute("http.request.method", method);
    span.setAttribute("http.route", route);
    span.setAttribute("http.response.status_code", status);
    if (line.request_id) span.setAttribute("service.request_id", line.request_id);
    if (status >= 500) span.setStatus({ code: 2 });
    span.end();
  }
  writeRequestLine(line);
}

/**
 * The one request line of every door (the /v1 API here, the dashboard's tRPC endpoint in
 * server/api/http/dashboard.ts), so an operator follows a request by the same fields whichever door it came through.
 * Only known, safe values: ids, the method, the route (a template or procedure names, never a query), the status,
 * the duration and an error code; never a header, cookie or body.
 */
export interface RequestLine {
  request_id?: string;
  client_request_id?: string;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  workspace_id?: string;
  error_code?: string;
}

/** Milliseconds to a tenth, as the request line writes them. */
export function durationMs(seconds: number): number {
  return Math.round(seconds * 10_000) / 10;
}

/** Writes the request line: at error for a 5xx, else at info. */
export function writeRequestLine(line: RequestLine): void {
  if (line.status >= 500) requestLogger().error(line, "request");
  else requestLogger().info(line, "request");
}

/**
 * What the door notes while it answers, for the observation: the matched route's template, the workspace once
 * authenticated, and whether the client went away in the middle of its upload (its body broke off).
 */
export interface Seen {
  workspaceId?: string;
  route?: string;
  clientGone?: boolean;
  /** Units were reserved for the request (it was admitted, whatever it answered). */
  admitted?: boolean;
}

/**
 * The status a request whose client went away before its body arrived is recorded with (log line, /metrics), in
 * place of the 400 the door refuses the broken body with: 499, as the request histories record an answer that could
 * not be delivered (server/api/rest/undelivered.ts). Nobody reads that 400, so it is not counted as a refused
 * admission. (The workspace's analytics count it as the 400 it was: ../analytics/request-outcomes.ts.)
 */
export const CLIENT_GONE_STATUS = 499;

/** What a plain door answers: a status, headers by lower-case name, and the error code for the observation. */
interface PlainDoorAnswer {
  status: number;
  headers: Record<string, string>;
  errorCode?: string;
}

/**
 * The REST door's answer (server/api/rest/plain-door.ts, whichever server carried the request) inside the request's
 * span: an unhandled error is logged and fails the span; otherwise the client's correlation id is echoed and the request recorded (metrics, span, log line) under the
 * route and workspace `answer` noted in `seen` ("unmatched" when it matched none).
 */
export function observedPlainAnswer<A extends PlainDoorAnswer>(
  req: { method: string; receivedAt?: number },
  headers: Pick<Headers, "get">,
  answer: (seen: Seen) => Promise<A>,
): Promise<Omit<A, "errorCode">> {
  return inRequestSpan(req.method, async (span) => {
    const started = req.receivedAt ?? performance.now();
    const seen: Seen = {};
    let out: A;
    try {
      out = await answer(seen);
    } catch (err) {
      logger().error({ err, method: req.method, route: seen.route ?? "unmatched" }, "unhandled error in the REST API");
      span?.setStatus({ code: 2 });
      span?.end();
      throw err;
    }
    const clientId = clientRequestId(headers);
    if (clientId) out.headers["x-client-request-id"] = clientId;
    // Start-up's own request for the OpenAPI document is no client's: not logged, not counted.
    if (isStartupRequest(headers, seen.route)) {
      // The registry is still made here, as by any request: the front's and the gate's answers before the first
      // client request (a 503 while start-up waits for the database) count into it (http-front.mjs countFrontAnswer).
      metrics();
      span?.end();
      const { errorCode: _, ...plain } = out;
      return plain;
    }
    // The broken body's own refusal (a 400) is what nobody reads; an answer an earlier step gave (401, 403, 429, 503)
    // stands as it is.
    const gone = seen.clientGone === true && out.status === 400;
    recordRequest(
      {
        method: req.method,
        route: seen.route ?? "unmatched",
        routed: seen.route !== undefined,
        status: gone ? CLIENT_GONE_STATUS : out.status,
        seconds: (performance.now() - started) / 1000,
        requestId: out.headers["x-request-id"],
        clientRequestId: clientId,
        workspaceId: seen.workspaceId,
        errorCode: gone ? undefined : out.errorCode,
        admitted: seen.admitted,
      },
      span,
    );
    const { errorCode: _, ...plain } = out;
    return plain;
  });
}
