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

/** 401 UNAUTHORIZED for a missing, unknown or revoked key; 403 API_KEY_PAUSED for a paused one. */
export async function authenticateApiKeyOrThrow(db: Db, plaintext: string | null): Promise<KeyPrincipal> {
  if (!plaintext) throw new AppError("UNAUTHORIZED", "An API key is required: send Authorization: Bearer <key> or X-API-Key: <key>.");
  if (!looksLikeApiKey(plaintext)) throw new AppError("UNAUTHORIZED", "The API key is not valid.");
  // One round trip: the key, its status and the workspace's active plans (the hot path of every request).
  const nowDate = new Date();
  const rows = await db.$queryRawUnsafe<{ id: string; status: string; workspaceId: string; lastUsedAt: Date | null; plans: string[] | null }[]>(
    `SELECT k."id", k."status", k."workspaceId", k."lastUsedAt",
            array_remove(array_agg(s."plan"), NULL) AS "plans"
       FROM "ApiKey" k
       LEFT JOIN "Subscription" s ON s."workspaceId" = k."workspaceId" AND ${entitlingSubscriptionSql("$2", "$3")}
      WHERE k."hash" = $1 AND k."kind" = 'secret'
      GROUP BY k."id"`,
    hashApiKey(plaintext),
    graceCutoff(nowDate),
    nowDate,
  );
  const key = rows[0];
  if (!key || key.status === "revoked") throw new AppError("UNAUTHORIZED", "The API key is not valid.");
  if (key.status === "paused") {
    throw new AppError("API_KEY_PAUSED", "This API key is paused because the workspace's plan allows fewer keys; use an included key or restore key capacity.");
  }
  const now = Date.now();
  const lastUsed = key.lastUsedAt ? new Date(key.lastUsedAt).getTime() : 0;
  if (now - lastUsed > LAST_USED_RESOLUTION_MS) {
    // Coarse last-use tracking: at most one write per key per minute keeps the hot path read-only.
    void db.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: new Date(now) } }).catch(() => undefined);
  }
  return {
    kind: "api_key",
    apiKeyId: key.id,
    workspaceId: key.workspaceId,
    entitlements: entitlementsFor(key.plans ?? []),
  };
}
