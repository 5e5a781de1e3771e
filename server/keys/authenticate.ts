// Resolves an API key from the request headers to its workspace. Only keys stored (hashed) in the database are
// accepted: there is no global or configured key, and no header can point a key at another workspace.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { graceDays } from "../billing/config";
import { entitlingSubscriptionSql, graceCutoff } from "../billing/entitled";
import { entitlementsFor, type Entitlements } from "../plans/catalog";
import { cachedKey, forgetCachedKey, rememberKey } from "./cache";
import type { KeyRow } from "./key-row";
import { hashApiKey, looksLikeApiKey } from "./secret";

export interface KeyPrincipal {
  kind: "api_key";
  apiKeyId: string;
  workspaceId: string;
  entitlements: Entitlements;
  /** A publishable key (server/keys/publishable.ts). */
  publishable?: true;
  /**
   * Present while this principal comes from the key cache and nothing has yet confirmed it: the plans it was
   * cached with. The metered ladder confirms it in its reservation statement, or reads the key again before it
   * answers anything else (server/quota/admission.ts); every other procedure reads the key fresh.
   */
  unconfirmed?: { plans: string[] };
}

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The one key a request presents, "" for credentials that cannot be one key (401), or null for none. Both headers
 * at once, or either one repeated (joined with ", " by Headers and by the front, scripts/http-front.mjs), is a
 * conflict and refused, never settled by picking one. A header sent empty presents no key (null: the 401 of a
 * missing key), like an empty Authorization.
 */
export function apiKeyFromHeaders(headers: Pick<Headers, "get">): string | null {
  const auth = headers.get("authorization");
  const x = headers.get("x-api-key");
  if (auth !== null && x !== null) return "";
  if (auth) {
    if (auth.includes(",")) return "";
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1]! : auth.trim();
  }
  if (x !== null && x.includes(",")) return "";
  return x?.trim() || null;
}

/**
 * The active key of this kind with this plaintext, in one round trip (the hot path of every request): 401
 * UNAUTHORIZED for an unknown or revoked key, 403 API_KEY_PAUSED for a paused one. Its last use is recorded
 * coarsely: at most one write per key per minute keeps the hot path read-only.
 */
export async function activeKeyOrThrow(db: Db, plaintext: string, kind: "secret" | "publishable"): Promise<KeyRow> {
  return keyRowOrThrow(await readKey(db, hashApiKey(plaintext), kind));
}

async function readKey(db: Db, hash: string, kind: "secret" | "publishable"): Promise<KeyRow | undefined> {
  const nowDate = new Date();
  const rows = await db.$queryRawUnsafe<KeyRow[]>(
    `SELECT k."id", k."status", k."workspaceId", k."lastUsedAt", k."allowedOrigins",
            array_remove(array_agg(s."plan"), NULL) AS "plans",
            min(s."pastDueSince") FILTER (WHERE s."status" = 'past_due') + make_interval(days => $5::int) AS "graceEndsAt",
            min(s."currentPeriodEnd") FILTER (WHERE s."cancelAtPeriodEnd") AS "cancelsAt"
       FROM "ApiKey" k
       LEFT JOIN "Subscription" s ON s."workspaceId" = k."workspaceId" AND ${entitlingSubscriptionSql("$2", "$3")}
      WHERE k."hash" = $1 AND k."kind" = $4
      GROUP BY k."id"`,
    hash,
    graceCutoff(nowDate),
    nowDate,
    kind,
    graceDays(),
  );
  return rows[0];
}

function keyRowOrThrow(key: KeyRow | undefined): KeyRow {
  if (!key || key.status === "revoked")
    throw new AppError("UNAUTHORIZED", "The API key is not valid.", { headers: INVALID_KEY_HEADERS });
  if (key.status === "paused") {
    throw new AppError(
      "API_KEY_PAUSED",
      "This API key is paused because the workspace's plan allows fewer keys; use an included key or restore key capacity.",
    );
  }
  return key;
}

/** Records the key's use, at most once a minute (after the request was admitted by every other check). */
export function touchKey(db: Db, key: KeyRow): void {
  const now = Date.now();
  const lastUsed = key.lastUsedAt ? new Date(key.lastUsedAt).getTime() : 0;
  if (now - lastUsed > LAST_USED_RESOLUTION_MS) {
    // A cached row is shared by the key's requests: the next one sees this use and writes nothing.
    key.lastUsedAt = new Date(now);
    void db.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date(now) } }).catch(() => undefined);
  }
}

/** The principal of a stored key; `entitlements` when already worked out from its plans (the key cache's). */
export function principalOf(
  key: KeyRow,
  kind: "secret" | "publishable" = "secret",
  entitlements: Entitlements = entitlementsFor(key.plans ?? []),
): KeyPrincipal {
  const principal: KeyPrincipal = { kind: "api_key", apiKeyId: key.id, workspaceId: key.workspaceId, entitlements };
  if (kind === "publishable") principal.publishable = true;
  return principal;
}

/**
 * How a secret key is read: `fresh` from the database (the default); `cached` from the key cache when it holds the
 * key (the principal is then `unconfirmed` until the metered ladder confirms it), else from the database.
 */
export type KeyRead = "fresh" | "cached";

function earliest(...dates: (Date | null)[]): Date | null {
  const times = dates.filter((d): d is Date => d !== null).map((d) => new Date(d).getTime());
  return times.length ? new Date(Math.min(...times)) : null;
}

/**
 * The challenge of every 401 of /v1 (RFC 9110 §11.6.1: a 401 carries WWW-Authenticate), as RFC 6750 §3 words a
 * bearer token's: without an error code when no key was presented, `invalid_request` for credentials that cannot be
 * one key, `invalid_token` for a key that is not valid. Constants: the refusal path allocates nothing for them. The
 * REST door (server/api/rest/plain-answer.ts) gives KEY_CHALLENGE to a 401 that names none.
 */
export const KEY_CHALLENGE = 'Bearer realm="api"';
const NO_KEY_HEADERS = { "WWW-Authenticate": KEY_CHALLENGE };
const CONFLICTING_KEY_HEADERS = { "WWW-Authenticate": `${KEY_CHALLENGE}, error="invalid_request"` };
export const INVALID_KEY_HEADERS = { "WWW-Authenticate": `${KEY_CHALLENGE}, error="invalid_token"` };

/**
 * The 401 a presented secret key gets before any read: none presented (null), credentials that cannot be one key
 * (""), or a value that is no key's shape. Null when the key must be read to be judged. Sync and without I/O, so the
 * REST door can answer it before it reads a body (server/api/rest/plain-door.ts); authenticateApiKeyOrThrow throws it.
 */
export function keyShapeRefusal(plaintext: string | null): AppError | null {
  if (plaintext === "")
    return new AppError(
      "UNAUTHORIZED",
      "Send exactly one API key, once: Authorization: Bearer <key> or X-API-Key: <key>, not both and not repeated.",
      { headers: CONFLICTING_KEY_HEADERS },
    );
  if (!plaintext)
    return new AppError(
      "UNAUTHORIZED",
      "An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>.",
      { headers: NO_KEY_HEADERS },
    );
  if (!looksLikeApiKey(plaintext))
    return new AppError("UNAUTHORIZED", "The API key is not valid.", { headers: INVALID_KEY_HEADERS });
  return null;
}

/** 401 UNAUTHORIZED for a missing, unknown or revoked key; 403 API_KEY_PAUSED for a paused one. */
export async function authenticateApiKeyOrThrow(
  db: Db,
  plaintext: string | null,
  read: KeyRead = "fresh",
): Promise<KeyPrincipal> {
  const refusal = keyShapeRefusal(plaintext);
  if (refusal) throw refusal;
  // keyShapeRefusal refuses a missing key.
  const hash = hashApiKey(plaintext as string);
  const hit = read === "cached" ? cachedKey(db, hash) : null;
  if (hit) {
    touchKey(db, hit.row);
    return { ...principalOf(hit.row, "secret", hit.entitlements), unconfirmed: { plans: hit.row.plans ?? [] } };
  }
  const row = await readKey(db, hash, "secret");
  // What was just read replaces what the cache held (a revoked or paused key leaves it).
  if (row?.status === "active") rememberKey(db, hash, row, earliest(row.graceEndsAt, row.cancelsAt), read === "cached");
  else forgetCachedKey(db, hash);
  const key = keyRowOrThrow(row);
  touchKey(db, key);
  return principalOf(key);
}
