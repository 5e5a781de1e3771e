import { createHash, randomBytes } from "node:crypto";

// Secret keys look like `svc_live_<43 base64url chars>`, publishable ones `pk_live_<43 base64url chars>`; only the
// SHA-256 is stored, with a short visible prefix. The two formats never overlap, so a publishable key can never
// pass for a secret one (looksLikeApiKey) wherever only secret keys are accepted.
const KEY_PATTERN = /^svc_live_[A-Za-z0-9_-]{43}$/;
const PUBLISHABLE_PATTERN = /^pk_live_[A-Za-z0-9_-]{43}$/;

export type KeyKind = "secret" | "publishable";

export function generateApiKey(kind: KeyKind = "secret"): { plaintext: string; hash: string; prefix: string } {
  const plaintext = `${kind === "publishable" ? "pk_live_" : "svc_live_"}${randomBytes(32).toString("base64url")}`;
  return { plaintext, hash: hashApiKey(plaintext), prefix: plaintext.slice(0, kind === "publishable" ? 12 : 13) };
}

export function hashApiKey(plaintext: string): string {
  return createHash("sha256").update(plaintext).digest("hex");
}

/** Anything not in our format (legacy global or configured keys, publishable keys included) can never match a stored secret key. */
export function looksLikeApiKey(s: string): boolean {
  return KEY_PATTERN.test(s);
}

export function looksLikePublishableKey(s: string): boolean {
  return PUBLISHABLE_PATTERN.test(s);
}
