// The unsubscribe link of a monitor's emails: a token naming the monitor and the recipient, signed with an HMAC of
// a key derived from the service's keyring (server/secrets), so nobody can unsubscribe someone else by guessing.
// The key id travels in the token: a token signed before a key rotation still verifies while the old key is kept.
// Following it (GET or the RFC 8058 one-click POST) adds the recipient to the monitor's unsubscribed list, once.
import { createHmac, timingSafeEqual } from "node:crypto";
import { recordAudit } from "../../audit/audit";
import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { setting } from "../../env";
import { getKeyring } from "../../secrets/keyring";

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64url");
const unb64 = (s: string) => Buffer.from(s, "base64url").toString("utf8");

function mac(key: Buffer, payload: string): Buffer {
  const derived = createHmac("sha256", key).update("monitor-unsubscribe-v1").digest();
  return createHmac("sha256", derived).update(payload).digest();
}

/** `<payload>.<key id>.<mac>`, the payload being base64url of `monitorId\nemail`. */
export function unsubscribeToken(monitorId: string, email: string): string {
  const { current } = getKeyring();
  const payload = b64(`${monitorId}\n${email.toLowerCase()}`);
  return `${payload}.${current.id}.${mac(current.key, payload).toString("base64url")}`;
}

export function unsubscribeUrl(monitorId: string, email: string): string {
  const base = (setting("SERVICE_PUBLIC_URL") ?? `http://localhost:${setting("PORT")}`).replace(/\/+$/, "");
  return `${base}/v1/monitors/emails/unsubscribe?token=${encodeURIComponent(unsubscribeToken(monitorId, email))}`;
}

// A 32-byte MAC in base64url without padding: 43 characters of the URL-safe alphabet.
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Whether `given` is exactly the canonical spelling of `expected`. Node's base64url decoder is lenient (it skips
 * characters outside the alphabet, accepts padding and the "+/" alphabet, ignores the unused low bits of the last
 * character), so decoding and comparing bytes would accept many spellings of one signature; a changed token must
 * be refused, so the text itself is compared, in constant time, after a strict check of its shape.
 */
function sameSignature(given: string, expected: Buffer): boolean {
  if (!SIGNATURE.test(given)) return false;
  const canonical = Buffer.from(expected.toString("base64url"), "ascii");
  const actual = Buffer.from(given, "ascii");
  return actual.length === canonical.length && timingSafeEqual(actual, canonical);
}

const BAD_TOKEN = "This unsubscribe link is not valid (it was changed or cut short); use the link of a recent email.";

/** The monitor and recipient a token names, or 400 INVALID_REQUEST when it is not one we signed. */
export function readUnsubscribeTokenOrThrow(token: string): { monitorId: string; email: string } {
  const [payload, keyId, given, extra] = token.split(".");
  const key = keyId ? getKeyring().byId.get(keyId) : undefined;
  if (!payload || !given || extra !== undefined || !key) throw new AppError("INVALID_REQUEST", BAD_TOKEN);
  if (!sameSignature(given, mac(key.key, payload))) throw new AppError("INVALID_REQUEST", BAD_TOKEN);
  const [monitorId, email] = unb64(payload).split("\n");
  if (!monitorId || !email) throw new AppError("INVALID_REQUEST", BAD_TOKEN);
  return { monitorId, email };
}

/**
 * Stops `email` getting this monitor's alert emails (its other monitors' emails go on). Twice is fine: the second
 * time changes nothing and writes no audit event. A monitor deleted since the email answers the same confirmation.
 */
export async function unsubscribeOrThrow(db: Db, token: string) {
  const { monitorId, email } = readUnsubscribeTokenOrThrow(token);
  const done = { monitor_id: monitorId, email, unsubscribed: true as const };
  await db.$transaction(async (tx) => {
    await tx.$queryRawUnsafe(`SELECT 1 FROM "Monitor" WHERE "id" = $1 FOR UPDATE`, monitorId);
    const monitor = await tx.monitor.findUnique({ where: { id: monitorId } });
    if (!monitor || monitor.emailUnsubscribed.includes(email)) return;
    await tx.monitor.update({
      where: { id: monitorId },
      data: { emailUnsubscribed: [...monitor.emailUnsubscribed, email] },
    });
    // Pending emails of this monitor to this person are not sent either.
    await tx.monitorEmail.updateMany({
      where: { monitorId, recipient: email, status: "pending" },
      data: { status: "unsubscribed" },
    });
    await recordAudit(tx as unknown as Db, {
      workspaceId: monitor.workspaceId,
      requestId: null,
      type: "audit.monitor.unsubscribed",
      actor: { kind: "system", reason: `unsubscribe link of ${email}` },
      target: { kind: "monitor", id: monitor.id, label: monitor.name ?? monitor.target },
      before: null,
      after: { unsubscribed: email },
    });
  });
  return done;
}
