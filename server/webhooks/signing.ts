// Standard Webhooks signing: `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}` keyed with the secret's
// decoded bytes. The secret (`whsec_` + base64) is shown once at creation; it cannot be hashed (an HMAC key must be
// read back to sign), so it is stored encrypted (AES-256-GCM, server/secrets; README "Secrets at rest").
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(24).toString("base64");
}

export function signPayload(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  const mac = createHmac("sha256", key).update(`${msgId}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${mac}`;
}
