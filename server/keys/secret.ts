import { createHash, randomBytes } from "node:crypto";

// Keys look like `svc_live_<43 base64url chars>`; only the SHA-256 is stored, with a short visible prefix.
const KEY_PATTERN = /^svc_live_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(): { plaintext: string; hash: string; prefix: string } {
  const plaintext = `svc_live_${randomBytes(32).toString("base64url")}`;
  return { plaintext, hash: hashApiKey(plaintext), prefix: plaintext.slice(0, 13) };
}

export function hashApiKey(plaintext: string): string {
  return createHash("sha256").update(plaintext).digest("hex");
}

/** Anything not in our format (legacy global or configured keys included) can never match a stored key. */
export function looksLikeApiKey(s: string): boolean {
  return KEY_PATTERN.test(s);
}
