// Secrets at rest: AES-256-GCM envelopes "enc:v1:<key id>:<iv>:<ciphertext+tag>" (iv 12 bytes, tag 16 bytes,
// both parts base64url). The context (e.g. "webhook:wh_…") is authenticated as additional data, so an envelope
// copied into another row does not open there.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getKeyring, reloadKeyring } from "./keyring";

const PREFIX = "enc:v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const isSealed = (stored: string): boolean => stored.startsWith(PREFIX);

/** The key id an envelope was sealed under, or null for a value stored before encryption (plain text). */
export function sealedKeyId(stored: string): string | null {
  return isSealed(stored) ? (stored.slice(PREFIX.length).split(":")[0] ?? null) : null;
}

export function sealSecret(plaintext: string, context: string): string {
  const { current } = getKeyring();
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", current.key, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${current.id}:${iv.toString("base64url")}:${body.toString("base64url")}`;
}

/** Thrown when an envelope cannot be opened here: its key is not configured on this instance, or it was altered. */
export class SecretUnreadableError extends Error {}

/**
 * Opens an envelope. A value without the envelope prefix is a secret stored before encryption existed; it is
 * returned as it is (start-up encrypts such rows, see encryptPlaintextSecrets).
 */
export function openSecret(stored: string, context: string): string {
  if (!isSealed(stored)) return stored;
  const [keyId, ivText, bodyText] = stored.slice(PREFIX.length).split(":");
  // Another process may have rotated to a key this one has not loaded yet.
  const key = getKeyring().byId.get(keyId) ?? reloadKeyring().byId.get(keyId);
  if (!key) {
    throw new SecretUnreadableError(
      `A stored secret is encrypted under key ${keyId}, which this instance does not have: give every instance the same SERVICE_ENCRYPTION_KEY (and previous keys in SERVICE_ENCRYPTION_KEYS).`,
    );
  }
  const iv = Buffer.from(ivText ?? "", "base64url");
  const body = Buffer.from(bodyText ?? "", "base64url");
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES)
    throw new SecretUnreadableError("A stored secret's envelope is malformed.");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, iv);
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw new SecretUnreadableError(
      `A stored secret under key ${keyId} failed authentication (altered, or moved from another row).`,
    );
  }
}
