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

/**
 * The request header the site's proxy (proxy.ts) sets on every request outside /v1, replacing any a client sent: the
 * id its answer carries as X-Request-Id, so a route that records the request (history, events, logs) records that id.
 */
export const ASSIGNED_REQUEST_ID_HEADER = "x-service-request-id";
const REQUEST_ID = /^req_[A-Za-z0-9_-]{16}$/;

/** The request's id as the proxy assigned it, else a new one (a handler called without the proxy, as in tests). */
export function requestIdOf(req: { headers: Pick<Headers, "get"> }): string {
  const assigned = req.headers.get(ASSIGNED_REQUEST_ID_HEADER);
  return assigned && REQUEST_ID.test(assigned) ? assigned : newId("req");
}
