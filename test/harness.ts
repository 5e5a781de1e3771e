// Test harness: a fresh database per test file (in-memory PGlite, or an own schema in PostgreSQL when
// DATABASE_URL is set), seeded tenants, and requests through the real REST API. Nothing of ours is mocked.
import { expect } from "vitest";
import { getDb, type Db } from "../server/db/client";
import { handleRestRequest } from "../server/api/rest/handler";
import { answerPlain } from "../server/api/rest/plain-door";
import { takesDirect } from "../scripts/rest-direct.mjs";
import { createWorkspace } from "../server/workspaces/workspaces";
import { adjustUsage } from "../server/quota/adjust";

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface RequestOptions {
  key?: string;
  /** "bearer" (default) or "x-api-key" */
  keyHeader?: "bearer" | "x-api-key";
  body?: unknown;
  headers?: Record<string, string>;
}

export interface TestApp {
  db: Db;
  seedWorkspace(opts?: {
    plans?: string[];
    name?: string;
    usedUnits?: number;
  }): Promise<{ workspaceId: string; apiKey: string; apiKeyId: string }>;
  request(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>;
  ledgerCount(workspaceId: string): Promise<number>;
  used(workspaceId: string): Promise<number>;
}

/**
 * The file's database: a new in-memory PGlite, or on PostgreSQL a schema of the file's own (test/setup-env.ts
 * names it when the file starts, and drops it and closes the database when the file ends, so the next file of a
 * shared worker opens its own).
 */
export async function createTestApp(): Promise<TestApp> {
  const db = await getDb();
  return {
    db,
    async seedWorkspace(opts = {}) {
      const ws = await createWorkspace(db, {
        name: opts.name ?? "Test workspace",
        plans: opts.plans ?? ["suite_business"],
      });
      if (opts.usedUnits)
        await adjustUsage(db, { workspaceId: ws.workspaceId, units: opts.usedUnits, reason: "test seed" });
      return ws;
    },
    request: (method, path, opts = {}) => restRequest(method, path, opts),
    async ledgerCount(workspaceId) {
      return db.usageLedger.count({ where: { workspaceId, endpoint: { not: "admin.usage.adjust" } } });
    },
    async used(workspaceId) {
      const rows = await db.usagePeriod.findMany({ where: { workspaceId } });
      return rows.reduce((n, r) => n + r.used, 0);
    },
  };
}

export async function restRequest(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> {
  const headers = new Headers(opts.headers);
  if (opts.key !== undefined) {
    if (opts.keyHeader === "x-api-key") headers.set("X-API-Key", opts.key);
    else headers.set("Authorization", `Bearer ${opts.key}`);
  }
  // A string or the bytes as they are (a Buffer: a body in another encoding); anything else as JSON.
  let body: string | Buffer | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" || Buffer.isBuffer(opts.body) ? opts.body : JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("Content-Type", "application/json");
  }
  // Through the REST door from node:http's values, as the production server sends a /v1 request
  // (scripts/rest-direct.mjs); a target it leaves to Next reaches the route's handler as a web Request.
  if (takesDirect(path)) {
    const plainHeaders: Record<string, string> = Object.fromEntries(headers);
    if (body !== undefined) plainHeaders["content-length"] = String(Buffer.byteLength(body));
    const a = await answerPlain({
      method,
      url: path,
      headers: plainHeaders,
      body: body === undefined ? undefined : Buffer.from(body),
      base: BASE,
    });
    return testResponse(a.status, new Headers(a.headers), a.body);
  }
  const res = await handleRestRequest(
    new Request(`${BASE}${path}`, {
      method,
      headers,
      body: typeof body === "string" || body === undefined ? body : new Uint8Array(body),
    }),
  );
  return testResponse(res.status, res.headers, await res.text());
}

const BASE = "http://127.0.0.1:3000";

function testResponse(status: number, headers: Headers, text: string): TestResponse {
  let parsed: any = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status, headers, body: parsed, text };
}

/**
 * An answer that could not be delivered was not charged (server/api/rest/undelivered.ts): the workspace's units are
 * back to none, the ledger holds the charge and its refund (same request, saying why), and the request's one
 * history entry reads 499 with no units.
 */
export async function expectUndeliveredRefund(app: TestApp, workspaceId: string, endpoint: string): Promise<void> {
  await expect.poll(() => app.used(workspaceId), { timeout: 5_000 }).toBe(0);
  const ledger = await app.db.usageLedger.findMany({ where: { workspaceId }, orderBy: { units: "desc" } });
  expect(ledger.map((l) => l.units)).toEqual([1, -1]);
  expect(ledger[1]!.reason).toContain("could not be delivered");
  expect(ledger[1]!.requestId).toBe(ledger[0]!.requestId);
  await expect
    .poll(() => app.db.lookupHistory.findMany({ where: { workspaceId } }), { timeout: 5_000 })
    .toEqual([expect.objectContaining({ units: 0, status: 499, code: "CLIENT_CLOSED_REQUEST", endpoint })]);
}
