// Runs before Next's router. For /v1 it answers what Next would otherwise turn into a text/plain 500: paths that
// cannot be decoded (or that climb with "." and ".." segments) are unknown routes, 404 LOOKUP_NOT_FOUND, before
// any authentication. It only sees /v1 paths holding a "%" (see the matcher): running it on every API request
// doubled the CPU cost of a refused request (measured: ~1.0 -> ~2.4 ms), and every other /v1 case is answered by
// the REST handler itself; methods Next cannot route (TRACE, PROPFIND, ...) never reach Next under `npm start`
// (scripts/http-front.mjs). Any other address that cannot be decoded is 400 for a page (badAddress) and the same 404
// for the JSON entries under /api. Other responses get an X-Request-Id.
import { NextResponse, type NextRequest } from "next/server";

/** As server/ids.ts ASSIGNED_REQUEST_ID_HEADER (this file runs in the proxy's own bundle and imports no server code). */
const ASSIGNED_REQUEST_ID_HEADER = "x-service-request-id";

/**
 * As server/operate/observe.ts CLIENT_REQUEST_ID_RELAY_HEADER: the client's own X-Request-Id. Next copies every header
 * of this proxy's answer into the request the route sees, so the X-Request-Id set below replaces the client's there.
 */
const CLIENT_REQUEST_ID_RELAY_HEADER = "x-service-client-request-id";

/** The dashboard page being requested (path and query), for the sign-in redirect's way back. */
const DASHBOARD_PATH_HEADER = "x-dashboard-path";

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);

function requestId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `req_${Buffer.from(bytes).toString("base64url")}`;
}

function decodableSegments(rawPath: string): boolean {
  for (const seg of rawPath.split("/")) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(seg);
    } catch {
      return false;
    }
    if (decoded === "." || decoded === "..") return false;
  }
  return true;
}

function lookupNotFound(id: string, head: boolean): Response {
  const body = JSON.stringify({
    error: { code: "LOOKUP_NOT_FOUND", message: "No such route or method. See /v1/openapi.json for the API." },
  });
  return new Response(head ? null : body, {
    status: 404,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "private, no-store",
      "X-Request-Id": id,
    },
  });
}

/**
 * A page's address that cannot be decoded (`/dashboard/%FF`), or that climbs with an encoded "." or "..": 400. Next's
 * router would otherwise answer the first with a bare 500 once it decodes a dynamic segment (the dashboard's pages,
 * /go/{slug}, /badges/{host}.svg).
 */
function badAddress(id: string, head: boolean): Response {
  const body =
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
    "<title>Bad request</title></head><body><h1>Bad request</h1><p>This address is not valid. Check the link, or go " +
    'to the <a href="/">home page</a>.</p></body></html>';
  return new Response(head ? null : body, {
    status: 400,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-store", "X-Request-Id": id },
  });
}

export function proxy(request: NextRequest) {
  const rawPath = new URL(request.url).pathname;
  const head = request.method.toUpperCase() === "HEAD";
  if (rawPath === "/v1" || rawPath.startsWith("/v1/")) {
    if (!METHODS.has(request.method.toUpperCase()) || !decodableSegments(rawPath)) {
      return lookupNotFound(requestId(), head);
    }
    return NextResponse.next();
  }
  if (rawPath.includes("%") && !decodableSegments(rawPath)) {
    // The JSON entries (/api/trpc, /api/account/senders/{id}, ...) answer as their handlers do for such a path.
    return rawPath.startsWith("/api/") ? lookupNotFound(requestId(), head) : badAddress(requestId(), head);
  }
  // One id per request: the answer's X-Request-Id, and in a request header (replacing any the client sent) the id the
  // route records with what it does (history, events, logs: server/ids.ts requestIdOf).
  const id = requestId();
  const headers = new Headers(request.headers);
  headers.set(ASSIGNED_REQUEST_ID_HEADER, id);
  const clientId = request.headers.get("x-request-id");
  if (clientId === null) headers.delete(CLIENT_REQUEST_ID_RELAY_HEADER);
  else headers.set(CLIENT_REQUEST_ID_RELAY_HEADER, clientId);
  if (rawPath === "/dashboard" || rawPath.startsWith("/dashboard/")) {
    // The dashboard's layout sends a signed-out visitor to sign in and back to this page; a layout cannot see the
    // path, so it travels in a request header (set here, replacing any the client sent).
    const url = new URL(request.url);
    headers.set(DASHBOARD_PATH_HEADER, url.pathname + url.search);
  }
  const res = NextResponse.next({ request: { headers } });
  res.headers.set("X-Request-Id", id);
  return res;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|v1/|v1$).*)", "/v1/(.*%.*)"],
};
