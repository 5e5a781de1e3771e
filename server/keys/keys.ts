// API key lifecycle: created (plaintext shown once), paused/resumed by the workspace's key limit (oldest keys
// stay active), revoked permanently.
import { recordAudit, type Actor } from "../audit/audit";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { sortableId } from "../ids";
import { entitledPlans } from "../billing/entitled";
import { entitlementsFor } from "../plans/catalog";
import { generateApiKey, type KeyKind } from "./secret";
import { normalizeWebOrigin } from "../env/web-origin";

export type KeyStatus = "active" | "paused" | "revoked";

export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  /** secret: server side, every route; publishable: only POST /v1/device/check from a page on allowedOrigins. */
  kind: KeyKind;
  allowedOrigins: string[];
  status: KeyStatus;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

type KeyRow = {
  id: string;
  name: string;
  prefix: string;
  kind: string;
  allowedOrigins: string[];
  status: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

export function toKeySummary(k: KeyRow): ApiKeySummary {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    kind: k.kind === "publishable" ? "publishable" : "secret",
    allowedOrigins: k.allowedOrigins,
    status: k.status as KeyStatus,
    createdAt: k.createdAt,
    lastUsedAt: k.lastUsedAt,
    revokedAt: k.revokedAt,
  };
}

export const MAX_ALLOWED_ORIGINS = 20;

/** The allowed origins of a publishable key, each checked; 400 INVALID_REQUEST names the first that is not an origin. */
export function allowedOriginsOrThrow(kind: KeyKind, origins: string[] | undefined): string[] {
  const list = (origins ?? []).map((o) => o.trim()).filter(Boolean);
  if (kind === "secret") {
    if (list.length)
      throw new AppError(
        "INVALID_REQUEST",
        "Only publishable keys have allowed origins; a secret key is for your server and is never used from a browser page.",
      );
    return [];
  }
  if (list.length === 0)
    throw new AppError(
      "INVALID_REQUEST",
      "A publishable key needs at least one allowed origin, e.g. https://shop.example.com.",
    );
  if (list.length > MAX_ALLOWED_ORIGINS)
    throw new AppError("INVALID_REQUEST", `A publishable key allows at most ${MAX_ALLOWED_ORIGINS} origins.`);
  const out: string[] = [];
  for (const o of list) {
    const n = normalizeWebOrigin(o);
    if (!n)
      throw new AppError(
        "INVALID_REQUEST",
        `"${o.slice(0, 100)}" is not a web origin: write scheme and host only, e.g. https://shop.example.com or http://127.0.0.1:8080.`,
      );
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

/**
 * Who changed a key, for the audit trail (written in the same transaction as the change). A creation without an
 * actor is a new workspace's first key, part of creating the workspace, and is not recorded on its own; other
 * changes without one (a plan change whose caller named no actor) are recorded as the system's.
 */
export interface KeyAudit {
  actor?: Actor;
  requestId?: string | null;
}

const SYSTEM: Actor = { kind: "system", reason: "key lifecycle" };

export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];
type KeyEvent = "audit.key.created" | "audit.key.revoked" | "audit.key.paused" | "audit.key.resumed";

function auditKey(
  tx: Tx,
  k: { id: string; workspaceId: string; name: string; prefix: string },
  type: KeyEvent,
  audit: KeyAudit,
  before: object | null,
  after: object | null,
) {
  return recordAudit(tx, {
    workspaceId: k.workspaceId,
    type,
    actor: audit.actor ?? SYSTEM,
    requestId: audit.requestId ?? null,
    target: { kind: "api_key", id: k.id, label: `${k.name} (${k.prefix}…)` },
    before: before as Record<string, unknown> | null,
    after: after as Record<string, unknown> | null,
  });
}

type KeyInput = { workspaceId: string; name?: string; kind?: KeyKind; allowedOrigins?: string[] } & KeyAudit;

/** Creates a key within the workspace's key limit; the plaintext is returned here and never again. */
export async function createApiKey(db: Db, a: KeyInput): Promise<{ key: ApiKeySummary; plaintext: string }> {
  const kind = a.kind ?? "secret";
  const allowedOrigins = allowedOriginsOrThrow(kind, a.allowedOrigins);
  return db.$transaction((tx) => insertApiKey(tx, { ...a, kind, allowedOrigins }));
}

/**
 * createApiKey's work inside a transaction the caller holds (a new workspace and its first key are written together:
 * server/workspaces/workspaces.ts createWorkspace). The origins must already be checked (allowedOriginsOrThrow).
 */
export async function insertApiKey(
  tx: Tx,
  a: KeyInput & { kind: KeyKind; allowedOrigins: string[] },
): Promise<{ key: ApiKeySummary; plaintext: string }> {
  const { kind, allowedOrigins } = a;
  const secret = generateApiKey(kind);
  // Lock the workspace row so that parallel creations cannot both pass the limit check.
  await tx.$queryRawUnsafe(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, a.workspaceId);
  const limit = entitlementsFor(await entitledPlans(tx, a.workspaceId)).apiKeys;
  const held = await tx.apiKey.count({ where: { workspaceId: a.workspaceId, status: { not: "revoked" } } });
  if (held >= limit) {
    throw new AppError(
      "KEY_LIMIT_REACHED",
      `This workspace's plan allows ${limit} API key${limit === 1 ? "" : "s"}; revoke one or change the plan to create another.`,
    );
  }
  const key = await tx.apiKey.create({
    data: {
      id: sortableId("key"),
      workspaceId: a.workspaceId,
      name: a.name?.trim() || (kind === "publishable" ? "Publishable key" : "API key"),
      prefix: secret.prefix,
      hash: secret.hash,
      status: "active",
      kind,
      allowedOrigins,
    },
  });
  if (a.actor) {
    await auditKey(tx, key, "audit.key.created", a, null, {
      name: key.name,
      prefix: key.prefix,
      status: key.status,
      ...(kind === "publishable" ? { kind, allowedOrigins } : {}),
    });
  }
  return { key: toKeySummary(key), plaintext: secret.plaintext };
}

export async function listApiKeys(db: Db, workspaceId: string): Promise<ApiKeySummary[]> {
  const rows = await db.apiKey.findMany({ where: { workspaceId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toKeySummary);
}

/**
 * Revocation is permanent. Another workspace's key is answered as not found. An active key's place goes to the
 * oldest key a downgrade paused, which resumes (spec, States: oldest-first inclusion decides which keys are paused;
 * API_KEY_PAUSED's remedy is to restore key capacity), as a deleted monitor's goes to a paused monitor. Otherwise a
 * workspace that revoked its one included key kept only paused keys and could create no other.
 */
export async function revokeApiKeyOrThrow(
  db: Db,
  a: { keyId: string; workspaceId?: string } & KeyAudit,
): Promise<ApiKeySummary> {
  const key = await db.apiKey.findUnique({ where: { id: a.keyId } });
  if (!key || (a.workspaceId && key.workspaceId !== a.workspaceId)) throw new AppError("NOT_FOUND", "No such API key.");
  if (key.status === "revoked") return toKeySummary(key);
  const row = await db.$transaction(async (tx) => {
    // The workspace first, as key creation and applyKeyLimit lock it before any key: one order, no deadlock. Under
    // that lock no plan change can pause or resume the key, so its status is read again here: read before, a plan
    // change in between made the revocation a silent no-op (the route answered 200 with the key still usable).
    await tx.$queryRawUnsafe(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, key.workspaceId);
    const before = await tx.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    if (before.status === "revoked") return before;
    // Conditional on that status all the same, so two revocations at once record one change.
    const res = await tx.apiKey.updateMany({
      where: { id: key.id, status: before.status },
      data: { status: "revoked", revokedAt: new Date() },
    });
    const now = await tx.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    if (res.count === 1) {
      await auditKey(tx, now, "audit.key.revoked", a, { status: before.status }, { status: "revoked" });
      // A revocation only gives its place: it resumes paused keys up to the limit and pauses none (keys beyond the
      // limit for another reason, such as a grace period the grace job has not ended yet, are the plan change's).
      if (before.status === "active") await keyLimitIn(tx, key.workspaceId, a, { resumeOnly: true });
    }
    return now;
  });
  return toKeySummary(row);
}

/**
 * Applies the key limit after a plan change: non-revoked keys in oldest-first order stay (or become) active up
 * to the limit, the rest are paused. Revoked keys are never touched. Each key that changes is an audit event
 * (audit.key.paused / audit.key.resumed) with the plan change's actor, in the same transaction.
 */
export async function applyKeyLimit(
  db: Db,
  workspaceId: string,
  audit: KeyAudit = {},
): Promise<{ active: string[]; paused: string[] }> {
  const changes = { ...audit, actor: audit.actor ?? ({ kind: "system", reason: "plan change" } as Actor) };
  return db.$transaction((tx) => keyLimitIn(tx, workspaceId, changes));
}

/**
 * applyKeyLimit's work inside a transaction the caller holds (a plan change's, or a revocation's, which only
 * resumes). The limit is read after the workspace's lock, so two plan changes, or a plan change and a revocation,
 * each apply the plans the other left.
 */
async function keyLimitIn(
  tx: Tx,
  workspaceId: string,
  changes: KeyAudit,
  opts: { resumeOnly?: boolean } = {},
): Promise<{ active: string[]; paused: string[] }> {
  // The same lock as key creation, so a key created meanwhile is counted by one of the two.
  await tx.$queryRawUnsafe(`SELECT 1 FROM "Workspace" WHERE "id" = $1 FOR UPDATE`, workspaceId);
  const limit = entitlementsFor(await entitledPlans(tx, workspaceId)).apiKeys;
  const keys = await tx.apiKey.findMany({
    where: { workspaceId, status: { not: "revoked" } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const active = keys.slice(0, limit);
  const paused = keys.slice(limit);
  const resume = active.filter((k) => k.status === "paused");
  const pause = opts.resumeOnly ? [] : paused.filter((k) => k.status === "active");
  if (resume.length)
    await tx.apiKey.updateMany({
      where: { id: { in: resume.map((k) => k.id) }, status: "paused" },
      data: { status: "active" },
    });
  if (pause.length)
    await tx.apiKey.updateMany({
      where: { id: { in: pause.map((k) => k.id) }, status: "active" },
      data: { status: "paused" },
    });
  for (const k of resume)
    await auditKey(tx, k, "audit.key.resumed", changes, { status: "paused" }, { status: "active" });
  for (const k of pause) await auditKey(tx, k, "audit.key.paused", changes, { status: "active" }, { status: "paused" });
  return { active: active.map((k) => k.id), paused: paused.map((k) => k.id) };
}
