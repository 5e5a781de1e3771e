// API key lifecycle: created (plaintext shown once), paused/resumed by the workspace's key limit (oldest keys
// stay active), revoked permanently.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { newId } from "../ids";
import { entitlementsFor } from "../plans/catalog";
import { generateApiKey } from "./secret";

export type KeyStatus = "active" | "paused" | "revoked";

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  status: KeyStatus;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export function toKeySummary(k: { id: string; name: string; prefix: string; status: string; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }): ApiKeySummary {
  return { id: k.id, name: k.name, prefix: k.prefix, status: k.status as KeyStatus, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, revokedAt: k.revokedAt };
}

export async function activePlans(db: Db, workspaceId: string): Promise<string[]> {
  const subs = await db.subscription.findMany({ where: { workspaceId, status: "active" }, select: { plan: true } });
  return subs.map((s) => s.plan);
}

/** Creates a key within the workspace's key limit; the plaintext is returned here and never again. */
export async function createApiKey(db: Db, a: { workspaceId: string; name?: string }): Promise<{ key: ApiKeySummary; plaintext: string }> {
  const secret = generateApiKey();
  const row = await db.$transaction(async (tx) => {
    // Lock the workspace row so that parallel creations cannot both pass the limit check.
    await tx.$queryRawUnsafe(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, a.workspaceId);
    const subs = await tx.subscription.findMany({ where: { workspaceId: a.workspaceId, status: "active" }, select: { plan: true } });
    const limit = entitlementsFor(subs.map((s) => s.plan)).apiKeys;
    const held = await tx.apiKey.count({ where: { workspaceId: a.workspaceId, status: { not: "revoked" } } });
    if (held >= limit) {
      throw new AppError("KEY_LIMIT_REACHED", `This workspace's plan allows ${limit} API key${limit === 1 ? "" : "s"}; revoke one or change the plan to create another.`);
    }
    return tx.apiKey.create({
      data: { id: newId("key"), workspaceId: a.workspaceId, name: a.name?.trim() || "API key", prefix: secret.prefix, hash: secret.hash, status: "active" },
    });
  });
  return { key: toKeySummary(row), plaintext: secret.plaintext };
}

export async function listApiKeys(db: Db, workspaceId: string): Promise<ApiKeySummary[]> {
  const rows = await db.apiKey.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toKeySummary);
}

/** Revocation is permanent. Another workspace's key is answered as not found. */
export async function revokeApiKeyOrThrow(db: Db, a: { keyId: string; workspaceId?: string }): Promise<ApiKeySummary> {
  const key = await db.apiKey.findUnique({ where: { id: a.keyId } });
  if (!key || (a.workspaceId && key.workspaceId !== a.workspaceId)) throw new AppError("NOT_FOUND", "No such API key.");
  if (key.status === "revoked") return toKeySummary(key);
  const row = await db.apiKey.update({ where: { id: key.id }, data: { status: "revoked", revokedAt: new Date() } });
  return toKeySummary(row);
}

/**
 * Applies the key limit after a plan change: non-revoked keys in oldest-first order stay (or become) active up
 * to the limit, the rest are paused. Revoked keys are never touched.
 */
export async function applyKeyLimit(db: Db, workspaceId: string): Promise<{ active: string[]; paused: string[] }> {
  const limit = entitlementsFor(await activePlans(db, workspaceId)).apiKeys;
  const keys = await db.apiKey.findMany({
    where: { workspaceId, status: { not: "revoked" } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true },
  });
  const active = keys.slice(0, limit).map((k) => k.id);
  const paused = keys.slice(limit).map((k) => k.id);
  await db.$transaction([
    db.apiKey.updateMany({ where: { id: { in: active }, status: "paused" }, data: { status: "active" } }),
    db.apiKey.updateMany({ where: { id: { in: paused }, status: "active" }, data: { status: "paused" } }),
  ]);
  return { active, paused };
}
