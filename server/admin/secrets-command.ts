// `secrets status` and `secrets rotate`: thin wrappers over server/secrets. Never prints a key or a secret, only
// key ids and counts.
import type { Db } from "../db/client";
import { rotateSecrets, secretsStatus } from "../secrets/stored-secrets";

export async function secretsCommand(db: Db, verb: string): Promise<{ result: unknown; text: string }> {
  if (verb === "status") {
    const s = await secretsStatus(db);
    const counts =
      Object.entries(s.byKey)
        .map(([k, n]) => `${k}: ${n}`)
        .join(", ") || "no stored secrets";
    const missing = s.unknownKeys.length
      ? `\nmissing keys (set them in SERVICE_ENCRYPTION_KEYS): ${s.unknownKeys.join(", ")}`
      : "";
    return { result: s, text: `current key ${s.currentKeyId} (${s.source}); ${counts}${missing}` };
  }
  const r = await rotateSecrets(db);
  const how = r.generated
    ? "generated a new key in the key file; previous keys stay readable there"
    : "current key is SERVICE_ENCRYPTION_KEY; keep the previous key in SERVICE_ENCRYPTION_KEYS until every instance runs with the new one";
  const left = r.unreadable ? `; ${r.unreadable} left under keys this instance does not have (see secrets status)` : "";
  return {
    result: r,
    text: `re-encrypted ${r.reencrypted} of ${r.total} secrets under key ${r.keyId} (${how})${left}`,
  };
}
