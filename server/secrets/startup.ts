// Start-up duties of encryption at rest: fail before serving when production has no key, encrypt secrets stored
// before encryption existed, and say loudly when stored secrets need a key this instance lacks.
import type { Db } from "../db/client";
import { databaseUrl } from "../db/config";
import { getKeyring, reloadKeyring } from "./keyring";
import { encryptPlaintextSecrets, secretsStatus } from "./stored-secrets";
import { logger } from "../operate/log";

/** Throws, naming SERVICE_ENCRYPTION_KEY, when the keyring cannot be loaded (production without a key, bad value). */
export function assertEncryptionKeyConfigured(): void {
  // Read the configuration afresh: start-up must judge the environment it is given, never an earlier load.
  reloadKeyring();
}

export async function prepareStoredSecrets(db: Db): Promise<void> {
  const ring = getKeyring();
  if (ring.source === "file" && databaseUrl()) {
    // Instances sharing one PostgreSQL database must share the key, or one cannot read what another sealed.
    logger().warn(
      `SERVICE_ENCRYPTION_KEY is not set: stored secrets use the key generated in ${ring.file}. Every instance sharing this database needs the same key: set SERVICE_ENCRYPTION_KEY.`,
    );
  }
  const encrypted = await encryptPlaintextSecrets(db);
  if (encrypted > 0)
    logger().warn(
      `Encrypted ${encrypted} webhook secret${encrypted === 1 ? "" : "s"} stored in plain text (key ${ring.current.id}).`,
    );
  const { unknownKeys } = await secretsStatus(db);
  if (unknownKeys.length) {
    logger().error(
      `Stored secrets use key${unknownKeys.length === 1 ? "" : "s"} ${unknownKeys.join(", ")}, which this instance does not have: webhook deliveries signed with them will fail. Set the missing key in SERVICE_ENCRYPTION_KEYS.`,
    );
  }
}
