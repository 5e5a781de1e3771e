// Request log lines and the client's correlation id: one JSON line per request with the route template, never a
// key, Authorization header, cookie or full email address; a well-formed X-Request-Id is echoed, others ignored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logger } from "../../server/operate/log";
import { captureLogLines, silenceLogs } from "../log-lines";
import { createTestApp, type TestApp } from "../harness";

let app: TestApp;
let ws: { workspaceId: string; apiKey: string };
let lines: string[] = [];

beforeAll(async () => {
  app = await createTestApp();
  ws = await app.seedWorkspace({ plans: ["suite_business"] });
  lines = captureLogLines();
});

afterAll(() => silenceLogs());

const requestLines = () => lines.map((l) => JSON.parse(l)).filter((r) => r.msg === "request");

describe("request log lines", () => {
  it("writes one JSON line per request with time, level, ids, method, route template, status, duration and workspace", async () => {
    lines.length = 0;
    const res = await app.request("GET", "/v1/ip/8.8.8.8/geo", {
      key: ws.apiKey,
      headers: { Cookie: "next-auth.session-token=abc", "X-Request-Id": "trace-42" },
    });
    expect(res.status).toBe(200);
    const [line, ...rest] = requestLines();
    expect(rest).toEqual([]);
    expect(line).toMatchObject({
      level: 30,
      request_id: res.headers.get("x-request-id"),
      client_request_id: "trace-42",
      method: "GET",
      route: "/ip/{ip}/geo",
      status: 200,
      workspace_id: ws.workspaceId,
    });
    expect(typeof line.time).toBe("string");
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("never carries an API key, Authorization header, cookie or full email address", async () => {
    lines.length = 0;
    await app.request("GET", "/v1/vulnerabilities/npm/jane.doe%40example.com/", {
      key: ws.apiKey,
      headers: { Cookie: "next-auth.session-token=secretcookie" },
    });
    await app.request("GET", "/v1/ip/1.1.1.1/geo", { key: "sk_live_not_a_real_key_0123456789" });
    await app.request("POST", "/v1/email/check", { key: ws.apiKey, body: { email: "john.roe@example.org" } });
    logger().info(
      { authorization: `Bearer ${ws.apiKey}`, headers: { cookie: "a=b" }, secret: "whsec_x" },
      "background work",
    );
    const all = lines.join("\n");
    expect(requestLines()).toHaveLength(3);
    for (const secret of [
      ws.apiKey,
      "sk_live_not_a_real_key",
      "secretcookie",
      "jane.doe",
      "john.roe",
      "whsec_x",
      "Bearer",
    ]) {
      expect(all).not.toContain(secret);
    }
    expect(requestLines().map((l) => l.route)).toEqual([
      "/vulnerabilities/npm/{package}/",
      "/ip/{ip}/geo",
      "/email/check",
    ]);
  });
});

describe("X-Client-Request-Id", () => {
  it.each([["abc-123_x.y:z"], ["A".repeat(128)]])("echoes a well-formed X-Request-Id %#", async (id) => {
    const res = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey, headers: { "X-Request-Id": id } });
    expect(res.headers.get("x-client-request-id")).toBe(id);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.headers.get("x-request-id")).not.toBe(id);
  });

  it.each([["A".repeat(129)], ["has space"], ["semi;colon"], ["ünïcode"], ["a/b"], ["<the request's own key>"]])(
    "ignores a malformed X-Request-Id %#",
    async (id) => {
      lines.length = 0;
      // An API key sent as the correlation id is never written or echoed, as the key itself is not.
      const sent = id === "<the request's own key>" ? ws.apiKey : id;
      const res = await app.request("GET", "/v1/ip/8.8.8.8/geo", { key: ws.apiKey, headers: { "X-Request-Id": sent } });
      expect(res.status).toBe(200);
      expect(JSON.stringify(lines)).not.toContain(ws.apiKey);
      expect(res.headers.get("x-client-request-id")).toBeNull();
      expect(requestLines()[0].client_request_id).toBeUndefined();
    },
  );

  it("is echoed on errors too, and is not among the headers CORS preflight allows", async () => {
    const res = await app.request("GET", "/v1/no/such/route", { headers: { "X-Request-Id": "corr-1" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("x-client-request-id")).toBe("corr-1");
    process.env.SERVICE_ALLOWED_ORIGINS = "https://app.example";
    const pre = await app.request("OPTIONS", "/v1/ip/8.8.8.8/geo", {
      headers: {
        Origin: "https://app.example",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "x-request-id",
      },
    });
    delete process.env.SERVICE_ALLOWED_ORIGINS;
    expect(pre.status).toBe(403);
    expect(pre.body.error.code).toBe("ORIGIN_FORBIDDEN");
  });
});

describe("Retry-After on 503", () => {
  it("comes with every 503, so clients can back off (here: no DNS resolver answers)", async () => {
    const res = await app.request("GET", "/v1/dns/lookup?domain=example.com&type=A", { key: ws.apiKey });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(res.headers.get("retry-after")).toBe("10");
  });
});
