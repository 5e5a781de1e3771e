// The log line of a request to the dashboard's entries (the tRPC endpoint, the account and billing routes): the
// same line as a /v1 request's (server/operate/observe.ts writeRequestLine), so an operator follows what a signed-in
// user did by the same fields. Page loads are not logged: a dashboard page is a shell whose data comes through these
// entries (one line each), and its HTML, RSC payloads and prefetches would double the lines without saying more.
import { durationMs, writeRequestLine } from "../../operate/observe";

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
): Promise<Response> {
  const started = performance.now();
  const seen: RequestLineSeen = {};
  let status = 500;
  let requestId: string | undefined;
  try {
    const res = await answer(seen);
    status = res.status;
    requestId = res.headers.get("x-request-id") ?? undefined;
    return res;
  } finally {
    const called = seen.route ?? route;
    writeRequestLine({
      request_id: requestId,
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
