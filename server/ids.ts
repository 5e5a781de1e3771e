import { randomBytes } from "node:crypto";

/** Prefixed, unguessable ids (`ws_…`, `key_…`, `req_…`), so an id says what it names. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString("base64url")}`;
}
