// The log line of a request to the dashboard's entries (the tRPC endpoint, the account and billing routes): the
// same line as a /v1 request's (server/operate/observe.ts writeRequestLine), so an operator follows what a signed-in
// user did by the same fields. Page loads are not logged: a dashboard page is a shell whose data comes through these
// entries (one line each), and its HTML, RSC payloads and prefetches would double the lines without saying more.
import { clientRequestId, durationMs, writeRequestLine } from "../../operate/observe";
import { methodLabel, metrics } from "../../operate/metrics";
import { logger } from "../../operate/log";

/** What an entry notes while it answers, for its line. */
export interface RequestLineSeen {
  /** The route called, when the entry knows it better than the path it was given (a template). */
  route?: string;
  /** The workspace, once the session's membership is resolved (createDashboardContext). */
  workspaceId?: string;
  /** The code of the (first) error answered. */
  errorCode?: string;
}

// A tRPC batch names each procedure it calls; a client can make a path as long as it likes.
const MAX_LOGGED_ROUTE = 300;

/**
 * Runs `answer` and writes the request's line: the route (`route`, or the one `answer` noted: names and templates,
 * never the query, which holds the input), the status and X-Request-Id it answered (500 if it threw), the duration,
 * and the workspace and error code it noted. Never a header, cookie or body.
 */
export async function withRequestLine(
  req: Request,
  route: string,
  answer: (seen: RequestLineSeen) => Promise<Response>,
  counted?: string,
): Promise<Response> {
  const started = performance.now();
  const seen: RequestLineSeen = {};
  let status = 500;
  let requestId: string | undefined;
  // A client's well-formed correlation id is logged and echoed as /v1 does (server/operate/observe.ts).
  const clientId = clientRequestId(req.headers);
  try {
    const res = await answer(seen);
    status = res.status;
    requestId = res.headers.get("x-request-id") ?? undefined;
    if (clientId) {
      try {
        res.headers.set("x-client-request-id", clientId);
      } catch {
        // a response whose headers are immutable (a redirect built by the platform) goes without the echo
      }
    }
    return res;
  } finally {
    const called = seen.route ?? route;
    countRequest(req.method, counted ?? (called === "unmatched" ? "/api/unmatched" : called), status, started);
    writeRequestLine({
      request_id: requestId,
      client_request_id: clientId ?? undefined,
      method: req.method,
      route: called.length > MAX_LOGGED_ROUTE ? `${called.slice(0, MAX_LOGGED_ROUTE)}…` : called,
      status,
      duration_ms: durationMs((performance.now() - started) / 1000),
      workspace_id: seen.workspaceId,
      error_code: seen.errorCode,
    });
  }
}

/** The path of the request's URL, without its query. */
export function pathOf(req: Request, fallback: string): string {
  try {
    return new URL(req.url).pathname;
  } catch {
    return fallback;
  }
}

/**
 * Counts the request on /metrics beside the /v1 requests, under a route label of its own: `/api/trpc` for the
 * dashboard's tRPC endpoint (a batch's procedure names would make a label per combination), an account route's
 * template (`/api/account/senders/{id}`), `/api/unmatched` for an account path no route takes.
 */
function countRequest(method: string, route: string, status: number, started: number): void {
  try {
    const labels = { method: methodLabel(method), route, status: String(status) };
    metrics().requests.inc(labels);
    metrics().duration.observe(labels, (performance.now() - started) / 1000);
  } catch (err) {
    logger().warn({ err }, "recording request metrics failed");
  }
}
