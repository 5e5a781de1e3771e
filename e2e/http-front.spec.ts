// The production server (`npm start`: Next behind scripts/http-front.mjs) on real sockets: methods the API never
// registers are 404 LOOKUP_NOT_FOUND in the spec's error shape (Next alone answered TRACE with a text/plain 500 and
// PROPFIND with an empty 400), a GET with a malformed chunked body is refused, and the rest is Next as before.
import net from "node:net";
import { expect, test } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? "3217");

function raw(bytes: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let data = "";
    socket.setEncoding("latin1");
    socket.setTimeout(10_000, () => socket.destroy(new Error("timeout")));
    socket.on("data", (c) => (data += c));
    socket.on("error", reject);
    socket.on("close", () => {
      const i = data.indexOf("\r\n\r\n");
      resolve({ status: Number(data.split(" ")[1]), headers: data.slice(0, i).toLowerCase(), body: data.slice(i + 4) });
    });
    socket.write(bytes);
  });
}

test("unknown methods on /v1 are 404 LOOKUP_NOT_FOUND before authentication", async () => {
  for (const method of ["TRACE", "PROPFIND", "MKCOL", "LOCK", "SEARCH", "REPORT", "PURGE"]) {
    const res = await raw(`${method} /v1/ip/8.8.8.8/geo HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(res.status, method).toBe(404);
    expect(res.headers).toContain("content-type: application/json; charset=utf-8");
    expect(JSON.parse(res.body).error.code, method).toBe("LOOKUP_NOT_FOUND");
  }
});

test("a GET with a malformed chunked body is 400 INVALID_REQUEST", async () => {
  const res = await raw(
    "GET /v1/ip/8.8.8.8/geo HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer not-a-key\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhi\r\n0\r\n\r\n",
  );
  expect(res.status).toBe(400);
  expect(JSON.parse(res.body).error.code).toBe("INVALID_REQUEST");
});

test("registered routes, the OpenAPI document and pages are served as before", async ({ request }) => {
  expect((await request.get("/v1/openapi.json")).status()).toBe(200);
  const noKey = await request.get("/v1/ip/8.8.8.8/geo");
  expect(noKey.status()).toBe(401);
  expect((await noKey.json()).error.code).toBe("UNAUTHORIZED");
  expect((await request.get("/v1/ip/%ZZ/geo")).status()).toBe(404);
  expect((await request.get("/")).status()).toBe(200);
});

test("an empty segment or a backslash under /v1 is 404 LOOKUP_NOT_FOUND, never a redirect", async () => {
  // Next answered these with a 308 to the cleaned path, before any key was looked at.
  for (const path of ["/v1/ip//8.8.8.8/geo", "/v1//", "/v1/ip/8.8.8.8\\geo"]) {
    const res = await raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(res.status, path).toBe(404);
    expect(JSON.parse(res.body).error.code, path).toBe("LOOKUP_NOT_FOUND");
  }
});

test("the JSON entries under /api answer an unknown path or method with JSON 404 LOOKUP_NOT_FOUND", async ({
  request,
}) => {
  // An account or billing route's unexported method was Next's 405 with an empty body, an unknown path its HTML page.
  for (const [method, path] of [
    ["DELETE", "/api/account/reports"],
    ["PUT", "/api/billing/checkout"],
    ["PATCH", "/api/billing/portal"],
    ["GET", "/api/nope"],
    ["POST", "/api/account/nope"],
    ["GET", "/api/trpc/a/b"],
  ] as const) {
    const res = await request.fetch(path, { method, maxRedirects: 0 });
    expect(res.status(), `${method} ${path}`).toBe(404);
    expect(res.headers()["content-type"], `${method} ${path}`).toContain("application/json");
    expect((await res.json()).error.code, `${method} ${path}`).toBe("LOOKUP_NOT_FOUND");
    expect(res.headers()["x-request-id"], `${method} ${path}`).toMatch(/^req_/);
  }
});

test("the dashboard's endpoints echo the client's own X-Request-Id, not the service's", async () => {
  // Next copies every header of the proxy's answer into the request the route sees, so the proxy's X-Request-Id
  // replaced the client's: /api/trpc and the account routes echoed and logged the service's id as the client's.
  for (const path of ["/api/trpc/account.overview", "/api/account/senders"]) {
    const sent = await raw(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: client-e2e.1\r\nConnection: close\r\n\r\n`,
    );
    expect(sent.headers, path).toContain("x-client-request-id: client-e2e.1\r\n");
    expect(sent.headers, path).toMatch(/x-request-id: req_/);
    const none = await raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(none.headers, path).not.toContain("x-client-request-id");
  }
});

test("the dashboard's tRPC endpoint answers a method it does not take in JSON, not Next's empty 405", async ({
  request,
}) => {
  // /api/trpc exported GET and POST only: PUT, PATCH and DELETE were Next's 405 with an empty body.
  for (const method of ["PUT", "PATCH", "DELETE"]) {
    const res = await request.fetch("/api/trpc/account.overview", { method, maxRedirects: 0 });
    expect(res.status(), method).toBe(404);
    expect(res.headers()["content-type"], method).toContain("application/json");
    expect((await res.json()).error.data.appCode, method).toBe("LOOKUP_NOT_FOUND");
  }
});

test("a request line Node's parser refuses under /api gets a JSON error, as under /v1", async () => {
  // An unknown method token or a raw non-ASCII byte in the target were Node's bare 400 with no body.
  for (const [line, status, code] of [
    ["FOO /api/account/reports", 404, "LOOKUP_NOT_FOUND"],
    ["FOO /api/trpc/account.overview", 404, "LOOKUP_NOT_FOUND"],
    ["DELETE /api/account/senders/\u00e9", 400, "INVALID_REQUEST"],
    // Spelled like /v1 (which the front answers in JSON with a method it parses): the same for one it cannot.
    ["FOO /V1/ip/8.8.8.8/geo", 404, "LOOKUP_NOT_FOUND"],
    ["FOO /v1%2fip%2f8.8.8.8%2fgeo", 404, "LOOKUP_NOT_FOUND"],
  ] as const) {
    const res = await raw(`${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(res.status, line).toBe(status);
    expect(res.headers, line).toContain("content-type: application/json; charset=utf-8");
    expect(JSON.parse(res.body).error.code, line).toBe(code);
  }
});

test("an Expect header other than 100-continue is ignored, not Node's empty 417", async () => {
  const res = await raw(
    "GET /v1/ip/8.8.8.8/geo HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: something\r\nConnection: close\r\n\r\n",
  );
  expect(res.status).toBe(401);
  expect(JSON.parse(res.body).error.code).toBe("UNAUTHORIZED");
});

test("an empty or dot segment under /api or resolving onto /v1 or /api, and a path spelled like /v1, are JSON 404 LOOKUP_NOT_FOUND", async () => {
  // /api/account/senders//verify was Next's 308 to /api/account/senders/verify (a POST sent on to another route);
  // /V1/... and /v1%2f... were Next's HTML 404 page with a registered method.
  for (const line of [
    "POST /api/account/senders//verify",
    "GET /api/account/./reports",
    "GET /api/trpc/../account/reports",
    "GET /V1/ip/8.8.8.8/geo",
    "POST /v1%2fassess",
    // Dot segments before the prefix, which Next resolved onto /v1 or /api past the front's checks (Host, bodies).
    "GET /a/../v1/ip/8.8.8.8/geo",
    "GET /a/%2e%2e/v1/ip/8.8.8.8/geo",
    "GET /x/../api/account/reports",
  ]) {
    const res = await raw(`${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    expect(res.status, line).toBe(404);
    expect(res.headers, line).toContain("content-type: application/json; charset=utf-8");
    expect(JSON.parse(res.body).error.code, line).toBe("LOOKUP_NOT_FOUND");
  }
});
