// Live answers of the REST API validated against the served OpenAPI document (openapi-validator.ts): successes,
// refusals and both 202s (a bulk job, a scan that outlasts its wait) must each be a documented status with a body
// that fits its schema and the headers the document promises, as Prism checks them as a validating proxy.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOpenApiDocument } from "../../server/api/rest/openapi";
import { createTestApp, type TestApp, type TestResponse } from "../harness";
import { answerValidator } from "./openapi-validator";

let app: TestApp;
let site: Server;
let siteUrl: string;
const env = { ...process.env };
const problems = answerValidator(getOpenApiDocument());

beforeAll(async () => {
  Object.assign(process.env, {
    SERVICE_BULK_WORKER: "0",
    SERVICE_SCAN_WAIT_MS: "0",
    SERVICE_ALLOW_PRIVATE_TARGETS: "1",
  });
  app = await createTestApp();
  site = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<p>hello</p>"));
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  process.env = env;
  await new Promise((resolve) => site.close(resolve));
});

/** Sends the call, checks it against the document and gives the answer back. */
async function conforming(method: string, path: string, opts: Parameters<TestApp["request"]>[2] = {}) {
  const res: TestResponse = await app.request(method, path, opts);
  expect(problems(method, path.replace(/^\/v1/, ""), res), `${method} ${path} answered ${res.status}`).toEqual([]);
  return res;
}

describe("live answers match the OpenAPI document", () => {
  it("the validator itself reports an undocumented status, a missing header and a body that does not fit", () => {
    const headers = new Headers({ "content-type": "application/json" });
    expect(problems("GET", "/ip/8.8.8.8/geo", { status: 418, headers, text: "{}" })).toEqual([
      "GET /ip/{ip}/geo: unable to match the returned status code 418",
    ]);
    const found = problems("GET", "/ip/8.8.8.8/geo", { status: 200, headers, text: '{"ip":5}' });
    expect(found).toContain("200: header X-Request-Id is documented but missing");
    expect(found.some((p) => p.startsWith("200 body/ip:"))).toBe(true);
  });

  it("POST /v1/jobs answers a documented 202 with the job and the quota headers", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await conforming("POST", "/v1/jobs", {
      key: ws.apiKey,
      body: { kind: "auto", targets: ["8.8.8.8", "CVE-2021-44228"] },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get("x-service-quota-used")).toBe("2");
    expect((await conforming("GET", `/v1/jobs/${res.body.id}`, { key: ws.apiKey })).status).toBe(200);
    expect((await conforming("GET", "/v1/jobs", { key: ws.apiKey })).status).toBe(200);
    const refused = await conforming("POST", "/v1/jobs", { key: ws.apiKey, body: { kind: "auto", targets: [] } });
    expect(refused.status).toBe(400);
  });

  it("POST /v1/scans answers a documented 202 while the scan runs, and GET /v1/scans/{id} a documented 200", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_business"] });
    const res = await conforming("POST", "/v1/scans", { key: ws.apiKey, body: { url: siteUrl } });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe("running");
    let read = await conforming("GET", `/v1/scans/${res.body.id}`, { key: ws.apiKey });
    for (let i = 0; i < 100 && read.body.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      read = await conforming("GET", `/v1/scans/${res.body.id}`, { key: ws.apiKey });
    }
    expect(read.status).toBe(200);
    expect(read.body.status).not.toBe("running");
  });

  it("successes and refusals of lookups, rules and workspace reads are documented with their bodies", async () => {
    const paid = await app.seedWorkspace({ plans: ["suite_business"] });
    const free = await app.seedWorkspace({ plans: ["free"] });
    const spent = await app.seedWorkspace({ plans: ["free"], usedUnits: 1_000_000 });
    const statuses: number[] = [];
    const calls: [string, string, Parameters<TestApp["request"]>[2]][] = [
      ["GET", "/v1/ip/8.8.8.8/geo", { key: paid.apiKey }],
      ["GET", "/v1/ip/8.8.8.8/geo", {}],
      ["GET", "/v1/ip/not-an-ip/geo", { key: paid.apiKey }],
      ["GET", "/v1/ip/8.8.8.8/geo", { key: spent.apiKey }],
      ["GET", "/v1/ip/8.8.8.8/reputation", { key: free.apiKey }],
      ["POST", "/v1/cidr/check", { key: paid.apiKey, body: { cidr: "203.0.113.0/30" } }],
      ["GET", "/v1/rules", { key: paid.apiKey }],
      [
        "POST",
        "/v1/rules",
        {
          key: paid.apiKey,
          body: {
            name: "test range",
            action: "block",
            conditions: [{ field: "ip", op: "cidr", value: "203.0.113.0/24" }],
          },
        },
      ],
      ["GET", "/v1/rules/rule_doesnotexist", { key: paid.apiKey }],
      ["GET", "/v1/events", { key: paid.apiKey }],
      ["GET", "/v1/events.csv", { key: paid.apiKey }],
      ["GET", "/v1/analytics/summary", { key: paid.apiKey }],
      ["GET", "/v1/lookups/history", { key: paid.apiKey }],
      ["GET", "/v1/scans/leaderboard", {}],
      ["GET", "/v1/sources", { key: paid.apiKey }],
    ];
    for (const [method, path, opts] of calls) statuses.push((await conforming(method, path, opts)).status);
    expect(new Set(statuses)).toEqual(new Set([200, 400, 401, 402, 403, 404]));
  });
});
