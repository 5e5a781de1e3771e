// Every 401 of /v1 carries WWW-Authenticate (RFC 9110 §15.5.2), worded as RFC 6750 §3 words a bearer token's: no
// error code when no key was sent, `invalid_request` for credentials that cannot be one key, `invalid_token` for a key
// that is not valid (no key's shape, unknown, revoked, an unknown publishable key). Through both ways into the door:
// node:http's values (answerPlain, the production path) and a web Request (handleRestRequest). Other statuses carry
// none; an approved browser origin may read it.
import { afterEach, describe, expect, it } from "vitest";
import { handleRestRequest } from "../../server/api/rest/handler";
import { answerPlain } from "../../server/api/rest/plain-door";
import { createApiKey, revokeApiKeyOrThrow } from "../../server/keys/keys";
import { createTestApp } from "../harness";

const app = await createTestApp();
const BASE = "http://127.0.0.1:3000";
const CHALLENGE = 'Bearer realm="api"';
const INVALID_TOKEN = 'Bearer realm="api", error="invalid_token"';

afterEach(() => {
  delete process.env.SERVICE_ALLOWED_ORIGINS;
});

/** The same request through both ways in: its status and WWW-Authenticate, which must agree. */
async function both(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const h = { ...headers, ...(text ? { "content-type": "application/json" } : {}) };
  const plain = await answerPlain({
    method,
    url: path,
    headers: text ? { ...h, "content-length": String(Buffer.byteLength(text)) } : h,
    body: text === undefined ? undefined : Buffer.from(text),
    base: BASE,
  });
  const web = await handleRestRequest(new Request(`${BASE}${path}`, { method, headers: h, body: text }));
  const answer = { status: plain.status, challenge: plain.headers["www-authenticate"] ?? null };
  expect({ status: web.status, challenge: web.headers.get("www-authenticate") }).toEqual(answer);
  return { ...answer, headers: web.headers };
}

describe("WWW-Authenticate on /v1", () => {
  it("a request without a key: the plain challenge", async () => {
    expect(await both("GET", "/v1/ip/8.8.8.8/geo", {})).toMatchObject({ status: 401, challenge: CHALLENGE });
  });

  it("a key that is not valid, whatever the reason: invalid_token", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const revoked = await createApiKey(app.db, { workspaceId: ws.workspaceId });
    await revokeApiKeyOrThrow(app.db, { keyId: revoked.key.id });
    const unknown = `svc_live_${"A".repeat(43)}`;
    for (const headers of [
      { authorization: "Bearer not-a-key" },
      { "x-api-key": "not-a-key" },
      { authorization: `Bearer ${unknown}` },
      { "x-api-key": revoked.plaintext },
    ] as Record<string, string>[]) {
      const r = await both("GET", "/v1/ip/8.8.8.8/geo", headers);
      expect(r, JSON.stringify(headers)).toMatchObject({ status: 401, challenge: INVALID_TOKEN });
    }
    // A publishable key that is not one the service issued, on the route publishable keys may call.
    const pk = await both(
      "POST",
      "/v1/device/check",
      { authorization: `Bearer pk_live_${"B".repeat(43)}` },
      { visitor_id: "v1" },
    );
    expect(pk).toMatchObject({ status: 401, challenge: INVALID_TOKEN });
  });

  it("two keys at once: invalid_request", async () => {
    const r = await both("GET", "/v1/ip/8.8.8.8/geo", { authorization: "Bearer a", "x-api-key": "b" });
    expect(r).toMatchObject({ status: 401, challenge: 'Bearer realm="api", error="invalid_request"' });
  });

  it("no challenge on an answer that is not 401", async () => {
    const free = await app.seedWorkspace({ plans: ["free"] });
    expect(await both("GET", "/v1/domain/example.com", { authorization: `Bearer ${free.apiKey}` })).toMatchObject({
      status: 403,
      challenge: null,
    });
    expect(await both("GET", "/v1/no-such-route", {})).toMatchObject({ status: 404, challenge: null });
  });

  it("an approved browser origin may read it", async () => {
    process.env.SERVICE_ALLOWED_ORIGINS = "https://app.example";
    const r = await both("GET", "/v1/ip/8.8.8.8/geo", { origin: "https://app.example" });
    expect(r.status).toBe(401);
    expect(r.headers.get("access-control-expose-headers")).toContain("WWW-Authenticate");
  });
});
