// The probe and scrape responses, shared by the Next route handlers (app/healthz, app/readyz, app/metrics) and
// the separate metrics listener. Probes are unauthenticated and unmetered; every answer is Cache-Control: no-store.
import { timingSafeEqual } from "node:crypto";
import { setting } from "../env";
import { newId } from "../ids";
import { checkReadiness } from "./readiness";

const NO_STORE = { "Cache-Control": "no-store" };

function probeHeaders(extra: Record<string, string> = {}): Headers {
  return new Headers({ ...NO_STORE, "X-Request-Id": newId("req"), ...extra });
}

/** Liveness: the process can answer. No database call, so a slow database never gets an instance restarted. */
export function healthzResponse(): Response {
  return new Response(JSON.stringify({ status: "ok" }), {
    status: 200,
    headers: probeHeaders({ "Content-Type": "application/json; charset=utf-8" }),
  });
}

export async function readyzResponse(): Promise<Response> {
  const r = await checkReadiness();
  return new Response(JSON.stringify(r), {
    status: r.status === "ready" ? 200 : 503,
    headers: probeHeaders({
      "Content-Type": "application/json; charset=utf-8",
      ...(r.status === "ready" ? {} : { "Retry-After": "5" }),
    }),
  });
}

function notFound(): Response {
  const body = { error: { code: "NOT_FOUND", message: "Not found." } };
  return new Response(JSON.stringify(body), {
    status: 404,
    headers: probeHeaders({ "Content-Type": "application/json; charset=utf-8" }),
  });
}

function bearerMatches(header: string | null, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!m) return false;
  const a = Buffer.from(m[1].trim());
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The scrape. `where` says which listener asks: on the main port /metrics exists only when
 * SERVICE_METRICS_TOKEN is set and no SERVICE_METRICS_PORT moves it elsewhere; anything else is a plain 404 so
 * the endpoint's existence is not advertised. The token is required wherever it is set.
 */
export async function metricsResponse(req: Request, where: "main" | "metrics-port"): Promise<Response> {
  const token = setting("SERVICE_METRICS_TOKEN") ?? "";
  const ownPort = setting("SERVICE_METRICS_PORT") !== null;
  if (where === "main" && (ownPort || !token)) return notFound();
  if (token && !bearerMatches(req.headers.get("authorization"), token)) return notFound();
  const { metrics } = await import("./metrics");
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    status: 200,
    headers: probeHeaders({ "Content-Type": registry.contentType }),
  });
}
