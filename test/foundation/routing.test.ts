import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { handleRestRequest } from "../../server/api/rest/handler";
import { answerPlain } from "../../server/api/rest/plain-door";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});

describe("unknown routes", () => {
  it.each([
    ["GET", "/v1/nope"],
    ["GET", "/v1"],
    ["GET", "/v1/ip"],
    ["POST", "/v1/ip/8.8.8.8/geo"],
    ["DELETE", "/v1/ip/8.8.8.8/geo"],
    ["HEAD", "/v1/ip/8.8.8.8/geo"],
    ["HEAD", "/v1/nope"],
    ["PUT", "/v1/lookups/history"],
    ["OPTIONS", "/v1/ip/8.8.8.8/geo"],
    // Methods the API never registers (TRACE and CONNECT never reach the handler: see http-front.test.ts).
    ["PROPFIND", "/v1/ip/8.8.8.8/geo"],
    ["MKCOL", "/v1/rules"],
    ["LOCK", "/v1/rules/r_1"],
    ["SEARCH", "/v1/events"],
    ["REPORT", "/v1/ip/8.8.8.8/geo"],
    ["PURGE", "/v1/ip/8.8.8.8/geo"],
  ])("%s %s is 404 LOOKUP_NOT_FOUND before authentication", async (method, path) => {
    const res = await app.request(method, path, { key: "svc_live_" + "B".repeat(43) });
    expect(res.status).toBe(404);
    if (method !== "HEAD")
      expect(res.body).toEqual({ error: { code: "LOOKUP_NOT_FOUND", message: expect.any(String) } });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("consumes no unit for a wrong method with a valid key", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("POST", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey, body: {} });
    expect(res.status).toBe(404);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});

describe("GET /v1/openapi.json", () => {
  it("is served without a key and describes the error shape, quota headers and capabilities", async () => {
    const res = await app.request("GET", "/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\./);
    const geo = doc.paths["/ip/{ip}/geo"].get;
    expect(geo["x-service-capability"]).toBe("geolocation");
    expect(Object.keys(geo.responses["200"].headers)).toEqual(
      expect.arrayContaining([
        "X-Service-Quota-Limit",
        "X-Service-Quota-Used",
        "X-Service-Quota-Remaining",
        "X-Service-Quota-Reset",
      ]),
    );
    expect(geo.responses["401"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(doc.components.schemas.Error.properties.error.required).toEqual(["code", "message"]);
  });
});

describe("request bodies", () => {
  it("answers malformed JSON with 400 INVALID_REQUEST", async () => {
    // Any POST route works here; the geolocation route is GET-only, so use a body on an unknown route too.
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/lookups/history?limit=0", { key: ws.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(res.body.error.message).toMatch(/limit/);
  });
});

describe("route matching", () => {
  it("accepts package coordinates with unencoded slashes (Go module paths) and the trailing slash as the spec writes it", async () => {
    const { buildRouteTable, matchRoute } = await import("../../server/api/rest/routes");
    const { appRouter } = await import("../../server/api/root");
    const table = buildRouteTable(appRouter);
    const m = matchRoute(table, "GET", "/vulnerabilities/packages/go/github.com/gin-gonic/gin/");
    expect(m?.route.template).toBe("/vulnerabilities/packages/{ecosystem}/{coordinate}/");
    expect(m?.rawParams).toEqual({ ecosystem: "go", coordinate: "github.com/gin-gonic/gin" });
    expect(
      matchRoute(table, "GET", "/vulnerabilities/packages/go/github.com%2Fgin-gonic%2Fgin")?.rawParams.coordinate,
    ).toBe("github.com%2Fgin-gonic%2Fgin");
    expect(matchRoute(table, "GET", "/vulnerabilities/npm/%40babel%2Fcore/")?.rawParams).toEqual({
      package: "%40babel%2Fcore",
    });
    expect(matchRoute(table, "GET", "/ip/8.8.8.8/geo/extra")).toBeNull();
  });
});

describe("unreadable input is refused after authentication and plan checks (spec order)", () => {
  it("answers bad JSON without a key with 401, not 400", async () => {
    const res = await app.request("POST", "/v1/blocklists/check", { body: "{bad" });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("UNAUTHORIZED");
  });

  it("answers bad JSON on a Free key with 403 CAPABILITY_REQUIRED, and on a Suite key with 400", async () => {
    const free = await app.seedWorkspace({ plans: ["free"] });
    const denied = await app.request("POST", "/v1/cidr/check", { key: free.apiKey, body: "{bad" });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe("CAPABILITY_REQUIRED");

    const paid = await app.seedWorkspace({ plans: ["suite_business"] });
    const bad = await app.request("POST", "/v1/cidr/check", { key: paid.apiKey, body: "{bad" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ code: "INVALID_REQUEST", message: "The request body is not valid JSON." });
    const wrongType = await app.request("POST", "/v1/email/check", {
      key: paid.apiKey,
      body: "email=a@b.c",
      headers: { "Content-Type": "text/plain" },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toMatch(/application\/json/);
    expect(await app.used(paid.workspaceId)).toBe(0);
  });

  it("refuses a JSON body that is not UTF-8 with 400 through both doors, and stores nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    // {"event":"login","ip":"81.2.69.142","user_id":"<0xff 0xfe>"}: bytes that would read as two U+FFFD.
    const bytes = Buffer.concat([
      Buffer.from('{"event":"login","ip":"81.2.69.142","user_id":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    const headers = { authorization: `Bearer ${ws.apiKey}`, "content-type": "application/json" };
    const plain = await answerPlain({
      method: "POST",
      url: "/v1/assess",
      headers: { ...headers, "content-length": String(bytes.length) },
      body: bytes,
      base: "http://127.0.0.1:3000",
    });
    const web = await handleRestRequest(
      new Request("http://127.0.0.1:3000/v1/assess", { method: "POST", headers, body: bytes }),
    );
    for (const [status, text] of [
      [plain.status, plain.body],
      [web.status, await web.text()],
    ] as const) {
      expect(status).toBe(400);
      expect(JSON.parse(text).error).toEqual({
        code: "INVALID_REQUEST",
        message: "The request body is not valid UTF-8: send JSON as UTF-8 text.",
      });
    }
    expect(await app.used(ws.workspaceId)).toBe(0);
    expect(await app.db.event.count({ where: { workspaceId: ws.workspaceId } })).toBe(0);
  });

  it("refuses a body over 1 MB with 400 and consumes nothing", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await app.request("POST", "/v1/email/check", {
      key: ws.apiKey,
      body: JSON.stringify({ email: "a".repeat(1_100_000) }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(await app.used(ws.workspaceId)).toBe(0);
  });

  it("answers a malformed percent-encoding in a path parameter with 400 after authentication", async () => {
    expect((await app.request("GET", "/v1/ip/%ZZ/geo")).status).toBe(401);
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await app.request("GET", "/v1/ip/%ZZ/geo", { key: ws.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
  });
});
