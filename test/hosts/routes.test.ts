import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { callProcedure } from "../net/call";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";
import { startHttpServer, type FakeHttpServer } from "../fakes/http-server";
import { createTestPki, startTlsServer, type RunningTlsServer } from "../fakes/tls-server";

let app: TestApp;
let dns: FakeDnsServer;
let tlsServer: RunningTlsServer;
let site: FakeHttpServer;
const env = { ...process.env };

beforeAll(async () => {
  app = await createTestApp();
  const pki = createTestPki();
  tlsServer = await startTlsServer(pki.issue({ names: ["secure.test"] }));
  site = await startHttpServer({
    routes: {
      "/": { status: 200, headers: { server: "test" } },
      "/to-metadata": { status: 302, headers: { location: "http://[::ffff:169.254.169.254]/latest" } },
    },
  });
  dns = await startFakeDnsServer({
    records: {
      "secure.test": [{ type: "A", data: "127.0.0.1" }],
      "sneaky.example.com": [{ type: "A", data: "192.168.1.1" }],
    },
  });
  Object.assign(process.env, {
    SERVICE_EXTRA_CA_FILE: pki.caFile,
    SERVICE_TARGET_RESOLVER: "configured",
    SERVICE_DNS_SERVERS: dns.address,
  });
});

afterAll(async () => {
  process.env = env;
  await Promise.all([dns.close(), tlsServer.close(), site.close()]);
});

beforeEach(() => {
  delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS;
  delete process.env.SERVICE_ONLINE_CHECK_RATE_LIMIT;
});

async function expectNoUnit(workspaceId: string) {
  expect(await app.used(workspaceId)).toBe(0);
  expect(await app.ledgerCount(workspaceId)).toBe(0);
}

describe("SSRF refusals cost nothing", () => {
  it.each([
    ["hosts.hostSsl", { host: "127.0.0.1" }],
    ["hosts.hostSsl", { host: "[::ffff:127.0.0.1]:443" }],
    ["hosts.hostStatus", { host: "sneaky.example.com" }],
    ["hosts.hostStatus", { host: "metadata.google.internal" }],
    ["hosts.hostStatus", { host: "example.com:25" }],
    ["hosts.onlineCheck", { url: "http://169.254.169.254/latest/meta-data/" }],
    ["hosts.onlineCheck", { url: "http://[fd00:ec2::254]/" }],
    ["hosts.onlineCheck", { url: "http://2130706433:8080/" }],
    // Decimal, octal and hex spellings of a loopback address (issue 3), which the host routes judge as written: the
    // SSRF guard's refusal, not the "as written" one of a public address's spelling below.
    ["hosts.hostStatus", { host: "0x7f.1" }],
    ["hosts.hostSsl", { host: "2130706433:443" }],
    ["hosts.hostSsl", { host: "0177.0.0.1" }],
  ] as const)("%s %j is 400 TARGET_FORBIDDEN with no unit", async (procedure, input) => {
    const ws = await app.seedWorkspace();
    const res = await callProcedure(app, ws.apiKey, procedure, input);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("TARGET_FORBIDDEN");
    expect(res.body.error.message).toMatch(/public internet/);
    await expectNoUnit(ws.workspaceId);
  });

  it("invalid host input is 400 INVALID_REQUEST with no unit", async () => {
    const ws = await app.seedWorkspace();
    for (const host of ["not a host", "a/b", "example.com:99999", ""]) {
      const res = await callProcedure(app, ws.apiKey, "hosts.hostSsl", { host });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
    }
    const bad = await callProcedure(app, ws.apiKey, "hosts.onlineCheck", { url: "ftp://example.com/" });
    expect(bad.body.error.code).toBe("INVALID_REQUEST");
    await expectNoUnit(ws.workspaceId);
  });
});

// A URL parser or inet_aton reads these as addresses (134744072 and 0x08080808 are 8.8.8.8, 1.1 is 1.0.0.1): the routes looked up the address they spell and answered for "8.8.8.8". As written they are no host,
// as /domain/{domain}, /blocklists/check and a monitor's target refuse them.
describe("a host written as no dotted quad, IPv6 address or name", () => {
  it.each([
    ["hosts.hostSsl", "134744072"],
    ["hosts.hostSsl", "0x08080808:443"],
    ["hosts.hostStatus", "1.1"],
    ["hosts.hostStatus", "010.8.8.8"],
  ] as const)("%s %s is 400 INVALID_REQUEST with no unit", async (procedure, host) => {
    const ws = await app.seedWorkspace();
    const res = await callProcedure(app, ws.apiKey, procedure, { host });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_REQUEST");
    expect(res.body.error.message).toMatch(/^host: .*dotted quad/);
    await expectNoUnit(ws.workspaceId);
  });
});

describe("host routes", () => {
  it("GET /host/{host}/ssl answers with the certificate and consumes one unit", async () => {
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    const ws = await app.seedWorkspace();
    const res = await callProcedure(app, ws.apiKey, "hosts.hostSsl", { host: `secure.test:${tlsServer.port}` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      host: "secure.test",
      port: tlsServer.port,
      valid: true,
      chainVerified: true,
      nameMatches: true,
    });
    expect(res.headers.get("x-service-quota-used")).toBe("1");
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("GET /host/{host}/status reports a redirect to metadata as blocked, and the unit counts", async () => {
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    const ws = await app.seedWorkspace();
    site.setRoute("/", { status: 301, headers: { location: "/to-metadata" } });
    try {
      const res = await callProcedure(app, ws.apiKey, "hosts.hostStatus", { host: `127.0.0.1:${site.port}` });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 302,
        redirectOutcome: "blocked",
        blockedRedirect: { url: "http://[::ffff:a9fe:a9fe]/latest" },
      });
      expect(res.body.redirects.map((h: { status: number }) => h.status)).toEqual([301, 302]);
      const viaOnline = await callProcedure(app, ws.apiKey, "hosts.onlineCheck", { url: `${site.url}/` });
      expect(viaOnline.status).toBe(200);
      expect(viaOnline.body.locations[0].error).toMatchObject({ kind: "blocked_redirect" });
      expect(viaOnline.body.locations[0].error.message).toMatch(/169\.254\.169\.254/);
      expect(await app.used(ws.workspaceId)).toBe(2);
    } finally {
      site.setRoute("/", { status: 200, headers: { server: "test" } });
    }
  });

  it("a plan without full intelligence gets 403 CAPABILITY_REQUIRED", async () => {
    const ws = await app.seedWorkspace({ plans: ["free"] });
    const res = await callProcedure(app, ws.apiKey, "hosts.hostStatus", { host: "example.com" });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("CAPABILITY_REQUIRED");
  });
});

describe("POST /online-check burst limit", () => {
  it("429 RATE_LIMITED with Retry-After over the configured limit, consuming no unit", async () => {
    process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    process.env.SERVICE_ONLINE_CHECK_RATE_LIMIT = "2";
    const ws = await app.seedWorkspace();
    const url = `${site.url}/`;
    expect((await callProcedure(app, ws.apiKey, "hosts.onlineCheck", { url })).status).toBe(200);
    expect((await callProcedure(app, ws.apiKey, "hosts.onlineCheck", { url })).status).toBe(200);
    const limited = await callProcedure(app, ws.apiKey, "hosts.onlineCheck", { url });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe("RATE_LIMITED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await app.used(ws.workspaceId)).toBe(2);
    const other = await app.seedWorkspace();
    expect((await callProcedure(app, other.apiKey, "hosts.onlineCheck", { url })).status).toBe(200);
  });
});
