// Resolves an API key from the request headers to its workspace. Only keys stored (hashed) in the database are
// accepted: there is no global or configured key, and no header can point a key at another workspace.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { entitlingSubscriptionSql, graceCutoff } from "../billing/entitled";
import { entitlementsFor, type Entitlements } from "../plans/catalog";
import { hashApiKey, looksLikeApiKey } from "./secret";

export interface KeyPrincipal {
  kind: "api_key";
  apiKeyId: string;
  workspaceId: string;
  entitlements: Entitlements;
  /** A publishable key (server/keys/publishable.ts). */
  publishable?: true;
}

const LAST_USED_RESOLUTION_MS = 60_000;

export function apiKeyFromHeaders(headers: Headers): string | null {
  const auth = headers.get("authorization");
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1] : "";
  }
  const x = headers.get("x-api-key");
  return x === null ? null : x.trim();
}

/** A stored key as the hot path reads it: its status, workspace and the workspace's entitling plans. */
export interface KeyRow {
  id: string;
  status: string;
  workspaceId: string;
  lastUsedAt: Date | null;
  allowedOrigins: string[];
  plans: string[] | null;
}

/**
 * The active key of this kind with this plaintext, in one round trip (the hot path of every request): 401
 * UNAUTHORIZED for an unknown or revoked key, 403 API_KEY_PAUSED for a paused one. Its last use is recorded
 * coarsely: at most one write per key per minute keeps the hot path read-only.
 */
export async function activeKeyOrThrow(db: Db, plaintext: string, kind: "secret" | "publishable"): Promise<KeyRow> {
  const nowDate = new Date();
  const rows = await db.$queryRawUnsafe<KeyRow[]>(
    `SELECT k."id", k."status", k."workspaceId", k."lastUsedAt", k."allowedOrigins",
            array_remove(array_agg(s."plan"), NULL) AS "plans"
       FROM "ApiKey" k
       LEFT JOIN "Subscription" s ON s."workspaceId" = k."workspaceId" AND ${entitlingSubscriptionSql("$2", "$3")}
      WHERE k."hash" = $1 AND k."kind" = $4
      GROUP BY k."id"`,
    hashApiKey(plaintext),
    graceCutoff(nowDate),
    nowDate,
    kind,
  );
  const key = rows[0];
  if (!key || key.status === "revoked") throw new AppError("UNAUTHORIZED", "The API key is not valid.");
  if (key.status === "paused") {
    throw new AppError("API_KEY_PAUSED", "This API key is paused because the workspace's plan allows fewer keys; use an included key or restore key capacity.");
  }
  return key;
}

/** Records the key's use, at most once a minute (after the request was admitted by every other check). */
export function touchKey(db: Db, key: KeyRow): void {
  const now = Date.now();
  const lastUsed = key.lastUsedAt ? new Date(key.lastUsedAt).getTime() : 0;
  if (now - lastUsed > LAST_USED_RESOLUTION_MS) {
    void db.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date(now) } }).catch(() => undefined);
  }
}

export function principalOf(key: KeyRow, kind: "secret" | "publishable" = "secret"): KeyPrincipal {
  const principal: KeyPrincipal = { kind: "api_key", apiKeyId: key.id, workspaceId: key.workspaceId, entitlements: entitlementsFor(key.plans ?? []) };
  if (kind === "publishable") principal.publishable = true;
  return principal;
}

/** 401 UNAUTHORIZED for a missing, unknown or revoked key; 403 API_KEY_PAUSED for a paused one. */
export async function authenticateApiKeyOrThrow(db: Db, plaintext: string | null): Promise<KeyPrincipal> {
  if (!plaintext) throw new AppError("UNAUTHORIZED", "An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>.");
  if (!looksLikeApiKey(plaintext)) throw new AppError("UNAUTHORIZED", "The API key is not valid.");
  const key = await activeKeyOrThrow(db, plaintext, "secret");
  touchKey(db, key);
  return principalOf(key);
}
