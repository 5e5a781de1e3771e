// Publishable keys (pk_live_…): made to sit in a web page, like Stripe's or FingerprintJS's public keys. One may call
// only POST /v1/device/check, only from a browser page whose Origin is in the key's allowed origins, at most
// SERVICE_PUBLISHABLE_RATE_LIMIT times per client IP and window; each accepted check costs its unit like any other.
// The REST API resolves every key through authenticateRestKeyOrThrow: a secret key goes the usual way
// (server/keys/authenticate.ts), which never accepts a publishable one.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { clientAddress } from "../http/origin";
import { consumeRateLimit } from "../ratelimit/ratelimit";
import {
  activeKeyOrThrow,
  apiKeyFromHeaders,
  authenticateApiKeyOrThrow,
  INVALID_KEY_HEADERS,
  keyShapeRefusal,
  principalOf,
  touchKey,
  type KeyPrincipal,
  type KeyRead,
} from "./authenticate";
import { publishableRateLimit, publishableRateWindowSeconds } from "./config";
import { ipv6ToGroups, formatIpv6, parseIpStrict } from "../net/ip-parse";
import { looksLikePublishableKey } from "./secret";

/** The procedures a publishable key may call (REST: POST /v1/device/check). */
export const PUBLISHABLE_PROCEDURES: ReadonlySet<string> = new Set(["device.check"]);

const normalize = (origin: string) => origin.trim().replace(/\/+$/, "").toLowerCase();

/** Whether an active publishable key lists this origin: the CORS answer of the routes such keys may call. */
export async function publishableOriginListed(db: Db, origin: string): Promise<boolean> {
  const hit = await db.apiKey.findFirst({
    where: { kind: "publishable", status: "active", allowedOrigins: { has: normalize(origin) } },
    select: { id: true },
  });
  return hit !== null;
}

/** Whom the per-IP limit counts: an IPv4 address, or an IPv6 address's /64 (one subscriber gets a whole /64). */
export function rateLimitSubject(ip: string | null): string {
  if (!ip) return "unknown";
  const parsed = parseIpStrict(ip);
  if (!parsed || parsed.version !== 6) return ip;
  const groups = ipv6ToGroups(parsed.address)!;
  return `${formatIpv6([...groups.slice(0, 4), 0, 0, 0, 0])}/64`;
}

/**
 * A publishable key, in this order: unknown or revoked 401 UNAUTHORIZED, paused 403 API_KEY_PAUSED, another route
 * 403 FORBIDDEN (the key is valid, it is just not allowed there), no Origin or one the key does not list 403
 * ORIGIN_FORBIDDEN, over the per-IP limit 429 RATE_LIMITED with Retry-After. All before any unit is reserved.
 */
export async function authenticatePublishableKeyOrThrow(
  db: Db,
  plaintext: string,
  a: { procedure: string; origin: string | null; ip: string | null },
): Promise<KeyPrincipal> {
  if (!looksLikePublishableKey(plaintext))
    throw new AppError("UNAUTHORIZED", "The API key is not valid.", { headers: INVALID_KEY_HEADERS });
  const key = await activeKeyOrThrow(db, plaintext, "publishable");
  if (!PUBLISHABLE_PROCEDURES.has(a.procedure)) {
    throw new AppError(
      "FORBIDDEN",
      "A publishable key (pk_live_…) may call only POST /v1/device/check; every other route needs a secret key, used from your server.",
    );
  }
  if (!a.origin)
    throw new AppError(
      "ORIGIN_FORBIDDEN",
      "A publishable key works only from a browser page on one of its allowed origins; this request has no Origin. From a server, use a secret key.",
    );
  if (!(key.allowedOrigins ?? []).includes(normalize(a.origin))) {
    throw new AppError(
      "ORIGIN_FORBIDDEN",
      `The origin ${a.origin.slice(0, 200)} is not one of this publishable key's allowed origins.`,
    );
  }
  const limit = publishableRateLimit();
  const windowSeconds = publishableRateWindowSeconds();
  // Per key and client IP (server/http/origin.ts); callers whose address is unknown share one bucket per key.
  const verdict = await consumeRateLimit({
    bucket: `publishable:${key.id}:${rateLimitSubject(a.ip)}`,
    limit,
    windowSeconds,
  });
  if (!verdict.allowed) {
    throw new AppError(
      "RATE_LIMITED",
      `Too many device checks from this address; at most ${limit} per ${windowSeconds} s. Retry in ${verdict.retryAfterSeconds} s.`,
      {
        headers: { "Retry-After": String(verdict.retryAfterSeconds) },
      },
    );
  }
  touchKey(db, key);
  return principalOf(key, "publishable");
}

/**
 * The REST API's key check. `originByConfig` says whether the request's Origin (if any) passed the API's own
 * CORS rule (SERVICE_ALLOWED_ORIGINS or the service's own origin): a publishable key's origin is checked against
 * the key instead, and a secret key from any other page is refused, as it would have been without publishable keys.
 */
export async function authenticateRestKeyOrThrow(
  db: Db,
  headers: Pick<Headers, "get">,
  a: { procedure: string; originByConfig: boolean; read?: KeyRead },
): Promise<KeyPrincipal> {
  const plaintext = apiKeyFromHeaders(headers);
  if (plaintext?.startsWith("pk_")) {
    return authenticatePublishableKeyOrThrow(db, plaintext, {
      procedure: a.procedure,
      origin: headers.get("origin"),
      ip: clientAddress(headers),
    });
  }
  const refusal = refusalBeforeRead(plaintext, a.originByConfig);
  if (refusal) throw refusal;
  return authenticateApiKeyOrThrow(db, plaintext, a.read);
}

/** A secret key's request from an origin the CORS rule does not allow, then a key of no usable shape. */
function refusalBeforeRead(plaintext: string | null, originByConfig: boolean): AppError | null {
  if (!originByConfig) return originRefusal();
  return keyShapeRefusal(plaintext);
}

/** 403 ORIGIN_FORBIDDEN: a browser's call from an origin the API does not allow (the CORS step and the key check). */
export const originRefusal = () => new AppError("ORIGIN_FORBIDDEN", "This origin may not call the API from a browser.");

/**
 * What authenticateRestKeyOrThrow refuses before it reads any key, or null when the key must be read: a secret key's
 * request from an origin the API's CORS rule does not allow (403 ORIGIN_FORBIDDEN), then no key, credentials that
 * cannot be one key, or no key's shape (401, keyShapeRefusal). Sync and without I/O: the REST door answers it before
 * it reads a body or calls the procedure (server/api/rest/plain-door.ts), the same refusal the ladder's first step
 * would give.
 */
export function restKeyRefusal(headers: Pick<Headers, "get">, originByConfig: boolean): AppError | null {
  const plaintext = apiKeyFromHeaders(headers);
  return plaintext?.startsWith("pk_") ? null : refusalBeforeRead(plaintext, originByConfig);
}
