// Browser use (spec, Authentication 9): only origins in SERVICE_ALLOWED_ORIGINS, only registered route and
// method pairs, only four request headers; approved origins may read the quota headers; never credentials.
// POST /device/check also answers the origins publishable keys list (originAllowedFor).
import { getDb } from "../../db/client";
import { setting } from "../../env";
import { PUBLISHABLE_PROCEDURES, publishableOriginListed } from "../../keys/publishable";
import { normalizeWebOrigin } from "../../env/web-origin";

export const CORS_ALLOWED_HEADERS = ["authorization", "content-type", "x-api-key", "accept"];
export const CORS_EXPOSED_HEADERS = [
  "X-Service-Quota-Limit",
  "X-Service-Quota-Used",
  "X-Service-Quota-Remaining",
  "X-Service-Quota-Reset",
  "X-Request-Id",
  "Retry-After",
  "WWW-Authenticate",
];

export function allowedOrigins(): Set<string> {
  return new Set(
    setting("SERVICE_ALLOWED_ORIGINS")
      .flatMap((o) => o.split(/\s+/))
      // Each in its one form (server/env/web-origin.ts): https://shop.example.com:443/ is https://shop.example.com.
      .map((o) => (o.trim() ? normalizeWebOrigin(o) : null))
      .filter((o): o is string => o !== null),
  );
}

/** A request from the service's own origin (`ownOrigin`, server/http/origin.ts) is not cross-origin and needs no listing. */
export function originAllowed(origin: string, ownOrigin: string): boolean {
  const o = origin.replace(/\/+$/, "").toLowerCase();
  if (allowedOrigins().has(o)) return true;
  return o === ownOrigin.toLowerCase();
}

export function requestedHeadersAllowed(list: string | null): boolean {
  if (!list) return true;
  return list
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
    .every((h) => CORS_ALLOWED_HEADERS.includes(h));
}

export function corsResponseHeaders(origin: string): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS.join(", "),
    Vary: "Origin",
  };
}

/** Whether originAllowedFor must read the database to judge this origin for this route (the publishable keys' origins). */
export function originNeedsDatabase(procedurePath: string, byConfig: boolean): boolean {
  return !byConfig && PUBLISHABLE_PROCEDURES.has(procedurePath);
}

/**
 * The REST API's CORS rule for one route: SERVICE_ALLOWED_ORIGINS and the service's own origin (`byConfig`), and for
 * the routes publishable keys may call (POST /device/check) also every origin an active publishable key lists. Such
 * an origin is let through to authentication only, which then accepts a publishable key listing it and nothing else
 * (server/keys/publishable.ts).
 */
export async function originAllowedFor(procedurePath: string, origin: string, byConfig: boolean): Promise<boolean> {
  if (!originNeedsDatabase(procedurePath, byConfig)) return byConfig;
  return publishableOriginListed(await getDb(), origin);
}
