// The REST door (server/api/rest/plain-door.ts) answers a request that the ladder's first step would refuse without
// reading any key (no key, credentials that cannot be one key, a value of no key's shape, a secret key's request from
// a forbidden origin) before it reads the body or calls the procedure. Held here to the ladder: for every /v1 route
// whose procedure starts with the caller's admission, the door's answer is the one the procedure itself gives through
// its middlewares (server/api/invoke.ts) for the same headers; the routes that admit otherwise are the named few, and
// they still reach their procedure (a public route answers without a key).
import { describe, expect, it } from "vitest";
import { errorParts } from "../../server/api/http/respond";
import { invokeProcedure } from "../../server/api/invoke";
import { answerPlain, headerReader, restRouteTable } from "../../server/api/rest/plain-door";
import { appRouter } from "../../server/api/root";
import { admitsCallerFirst } from "../../server/api/trpc";
import type { Context } from "../../server/api/context";
import { createApiKey } from "../../server/keys/keys";
import { authenticateRestKeyOrThrow } from "../../server/keys/publishable";
import { createTestApp } from "../harness";

const app = await createTestApp();
const procedures = appRouter._def.procedures as Record<string, unknown>;
const routes = restRouteTable();
const admitting = routes.filter((r) => admitsCallerFirst(procedures[r.procedurePath]));

/** A concrete path for a route's template (each parameter a plausible value). */
const pathOf = (template: string) => `/v1${template.replace(/\{[^}]+\}/g, "x1")}`;

const CASES: [string, Record<string, string>, boolean][] = [
  ["no key", {}, true],
  ["both headers", { authorization: "Bearer sk_live_abc", "x-api-key": "sk_live_abc" }, true],
  ["a repeated header", { authorization: "Bearer a, Bearer b" }, true],
  ["no key's shape", { authorization: "Bearer not-a-key" }, true],
  ["a forbidden origin", { origin: "https://elsewhere.example", authorization: "Bearer not-a-key" }, false],
];

/** What the procedure answers through its own ladder for these headers (the door's context, the same key check). */
async function ladderAnswer(procedurePath: string, type: string, headers: Record<string, string>, byConfig: boolean) {
  const reader = headerReader(headers);
  const ctx = {
    charge: { current: null },
    db: app.db,
    via: "api",
    requestId: "req_ladder",
    resHeaders: new Headers(),
    sessionUser: null,
    requestHeaders: reader as Headers,
    authenticate: (read?: "cached" | "fresh") =>
      authenticateRestKeyOrThrow(app.db, reader, { procedure: procedurePath, originByConfig: byConfig, read }),
  } as unknown as Context;
  try {
    await invokeProcedure(procedures[procedurePath], {
      path: procedurePath,
      getRawInput: async () => ({}),
      ctx,
      type,
      signal: undefined,
      batchIndex: 0,
    });
    return null;
  } catch (err) {
    const { status, body } = errorParts(err, "req_ladder", "rest");
    return { status, body };
  }
}

describe("the door's early refusal is the ladder's first step", () => {
  it("covers every /v1 route but the named public ones", () => {
    const others = routes.filter((r) => !admitting.includes(r)).map((r) => r.procedurePath);
    expect(others.sort()).toEqual(
      ["links.create", "monitors.unsubscribe", "monitors.unsubscribeOneClick", "scans.get", "scans.leaderboard"].sort(),
    );
    expect(admitting.length).toBeGreaterThan(80);
  });

  it.each(CASES)(
    "%s: the same status, code and message as the procedure's ladder, on every route",
    async (_, h, byConfig) => {
      let compared = 0;
      for (const route of admitting) {
        const door = await answerPlain({
          method: route.method,
          url: pathOf(route.template),
          headers: { host: "127.0.0.1:3000", ...h },
          base: "http://127.0.0.1:3000",
        });
        const ladder = await ladderAnswer(route.procedurePath, route.type, h, byConfig);
        expect(ladder, `${route.method} ${route.template}`).not.toBeNull();
        expect(
          { status: door.status, body: JSON.parse(door.body) as unknown },
          `${route.method} ${route.template}`,
        ).toEqual(ladder);
        expect(door.status === 401 || door.status === 403).toBe(true);
        compared++;
      }
      expect(compared).toBe(admitting.length);
    },
  );

  it("a secret key or none from an origin only a publishable key lists: the ladder's 403, past the CORS step", async () => {
    // The CORS step lets the origin through for the publishable route (a key of the workspace lists it), so the
    // refusal is the key check's own (restKeyRefusal's origin branch), not the CORS step's.
    const ws = await app.seedWorkspace();
    const origin = "https://shop.example.test";
    await createApiKey(app.db, { workspaceId: ws.workspaceId, kind: "publishable", allowedOrigins: [origin] });
    const route = admitting.find((r) => r.procedurePath === "device.check")!;
    expect(route).toBeDefined();
    for (const key of [null, ws.apiKey, "not-a-key"]) {
      const h: Record<string, string> = { origin, ...(key ? { authorization: `Bearer ${key}` } : {}) };
      const door = await answerPlain({
        method: route.method,
        url: pathOf(route.template),
        headers: { host: "127.0.0.1:3000", ...h },
        base: "http://127.0.0.1:3000",
      });
      expect({ status: door.status, body: JSON.parse(door.body) as unknown }).toEqual(
        await ladderAnswer(route.procedurePath, route.type, h, false),
      );
      expect(door.status).toBe(403);
      // Past the CORS step: the answer carries the origin's CORS headers, as the ladder's refusal did before.
      expect(door.headers["access-control-allow-origin"]).toBe(origin);
    }
  });

  it("leaves a public route to its procedure: the leaderboard answers without a key", async () => {
    const a = await answerPlain({
      method: "GET",
      url: "/v1/scans/leaderboard",
      headers: { host: "127.0.0.1:3000" },
      base: "http://127.0.0.1:3000",
    });
    expect(a.status).toBe(200);
  });

  it("reads no body before refusing: a body over the route's cap still gets the 401, not a 400", async () => {
    const a = await answerPlain({
      method: "POST",
      url: "/v1/assess",
      headers: { host: "127.0.0.1:3000", "content-type": "application/json", "content-length": "999999999" },
      body: async () => {
        throw new Error("the body was read");
      },
      base: "http://127.0.0.1:3000",
    });
    expect(a.status).toBe(401);
    expect(JSON.parse(a.body)).toMatchObject({ error: { code: "UNAUTHORIZED" } });
  });
});
