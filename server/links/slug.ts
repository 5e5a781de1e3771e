// Short-link slugs: unguessable, URL-safe and unambiguous in any context (letters and digits only).
import { randomInt } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const SLUG_LENGTH = 7;
/** What a slug of ours can look like; anything else is answered 404 without a database query. */
export const SLUG_PATTERN = /^[A-Za-z0-9]{7,32}$/;

export function newSlug(length = SLUG_LENGTH): string {
  let s = "";
  for (let i = 0; i < length; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}
