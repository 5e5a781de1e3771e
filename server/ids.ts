import { randomFillSync } from "node:crypto";

// Random bytes are drawn from the operating system 4 KiB at a time and handed out in slices, as Node does for
// randomUUID: a request makes several ids, and one system call per id showed up in the metered path's profile.
// The bytes are the same cryptographically secure ones; none is handed out twice.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

function random(bytes: number): Buffer {
  if (bytes > POOL_BYTES) return randomFillSync(Buffer.alloc(bytes));
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const out = Buffer.from(pool.subarray(offset, offset + bytes));
  offset += bytes;
  return out;
}

/** Prefixed, unguessable ids (`ws_…`, `key_…`, `req_…`), so an id says what it names. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${random(bytes).toString("base64url")}`;
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
  return `${prefix}_${time}${counter.toString(16).padStart(4, "0")}${random(bytes).toString("base64url")}`;
}
