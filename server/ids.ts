import { randomBytes } from "node:crypto";

/** Prefixed, unguessable ids (`ws_…`, `key_…`, `req_…`), so an id says what it names. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString("base64url")}`;
}

let lastMs = 0;
let counter = 0;

/**
 * Prefixed ids that sort by creation within a process (`evt_<ms><counter><random>`, hex then base64url): records
 * written in the same millisecond still list newest first when the id breaks a `created_at` tie.
 */
export function sortableId(prefix: string, bytes = 9): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else counter = (counter + 1) & 0xffff;
  const time = lastMs.toString(16).padStart(12, "0");
  return `${prefix}_${time}${counter.toString(16).padStart(4, "0")}${randomBytes(bytes).toString("base64url")}`;
}
