// The secrets the service stores in order to use them later: today the webhook signing secrets (an HMAC key cannot
// be hashed and still sign). API keys are not among them: they are kept only as hashes. This module seals and
// opens them, encrypts rows stored before encryption existed, re-encrypts under a new key, and reports status.
import type { Db } from "../db/client";
import { isSealed, openSecret, SecretUnreadableError, sealedKeyId, sealSecret } from "./envelope";
import { addGeneratedKey, getKeyring } from "./keyring";

const context = (webhookId: string) => `webhook:${webhookId}`;

export const sealWebhookSecret = (webhookId: string, secret: string): string => sealSecret(secret, context(webhookId));

export const openWebhookSecret = (row: { id: string; secret: string }): string =>
  openSecret(row.secret, context(row.id));

/** Re-seals one row under the current key; conditional on the stored value, so two instances never clash. */
async function reseal(db: Db, row: { id: string; secret: string }): Promise<boolean> {
  const sealed = sealWebhookSecret(row.id, openWebhookSecret(row));
  const res = await db.webhook.updateMany({ where: { id: row.id, secret: row.secret }, data: { secret: sealed } });
  return res.count === 1;
}

/**
 * Encrypts secrets still stored in plain text (rows from before encryption at rest). Run at start-up. The old
 * row versions are then compacted away with VACUUM FULL, best effort: older WAL segments and backups may still
 * hold them until they are recycled (see README).
 */
export async function encryptPlaintextSecrets(db: Db): Promise<number> {
  const rows = await db.webhook.findMany({
    where: { NOT: { secret: { startsWith: "enc:" } } },
    select: { id: true, secret: true },
  });
  let n = 0;
  for (const row of rows) if (await reseal(db, row)) n++;
  if (n > 0) await db.$executeRawUnsafe(`VACUUM FULL "Webhook"`).catch(() => undefined);
  return n;
}

export interface RotationResult {
  keyId: string;
  /** True when a new key was generated (key file or memory); false when SERVICE_ENCRYPTION_KEY is the current key. */
  generated: boolean;
  reencrypted: number;
  /** Secrets under a key this instance does not have: left as they are (see secrets status). */
  unreadable: number;
  total: number;
}

/**
 * `secrets rotate`: where the service owns its keys, adds a new current key; then re-encrypts every secret not
 * sealed under the current key. Previous keys stay readable, so a secret is never unusable half-way.
 */
export async function rotateSecrets(db: Db): Promise<RotationResult> {
  const generated = addGeneratedKey() !== null;
  const current = getKeyring().current.id;
  const rows = await db.webhook.findMany({ select: { id: true, secret: true } });
  let reencrypted = 0;
  let unreadable = 0;
  for (const row of rows) {
    if (sealedKeyId(row.secret) === current) continue;
    try {
      if (await reseal(db, row)) reencrypted++;
    } catch (err) {
      // One secret under a missing key must not stop the others from moving to the new key.
      if (!(err instanceof SecretUnreadableError)) throw err;
      unreadable++;
    }
  }
  if (rows.some((r) => !isSealed(r.secret))) await db.$executeRawUnsafe(`VACUUM FULL "Webhook"`).catch(() => undefined);
  return { keyId: current, generated, reencrypted, unreadable, total: rows.length };
}

export interface SecretsStatus {
  currentKeyId: string;
  source: "env" | "file" | "memory";
  /** Stored secrets per key id; "plaintext" counts rows not yet encrypted. */
  byKey: Record<string, number>;
  /** Key ids that stored secrets use but this instance does not have. */
  unknownKeys: string[];
}

export async function secretsStatus(db: Db): Promise<SecretsStatus> {
  const ring = getKeyring();
  const rows = await db.webhook.findMany({ select: { secret: true } });
  const byKey: Record<string, number> = {};
  for (const r of rows) {
    const id = sealedKeyId(r.secret) ?? "plaintext";
    byKey[id] = (byKey[id] ?? 0) + 1;
  }
  const unknownKeys = Object.keys(byKey).filter((k) => k !== "plaintext" && !ring.byId.has(k));
  return { currentKeyId: ring.current.id, source: ring.source, byKey, unknownKeys };
}
