import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getHostStatusOrThrow } from "../../server/hosts/status";
import { safeFetch } from "../../server/net";
import { runOnlineCheck } from "../../server/online-check";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";
import { startHttpServer, type FakeHttpServer } from "../fakes/http-server";
import { createTestPki } from "../fakes/tls-server";

let dns: FakeDnsServer;
let plain: FakeHttpServer;
let secure: FakeHttpServer;
let probeAgent: FakeHttpServer;
const env = { ...process.env };

beforeAll(async () => {
  const pki = createTestPki();
  secure = await startHttpServer({
    tls: pki.issue({ names: ["shop.test"] }),
    routes: {
      "/": { status: 301, headers: { location: "/home" } },
      "/home": {
        status: 200,
        headers: {
          "content-type": "text/html",
          server: "nginx",
          "strict-transport-security": "max-age=63072000",
          "x-frame-options": "DENY",
          "cf-ray": "abc-AMS",
        },
        body: "<h1>shop</h1>",
      },
      "/to-metadata": { status: 302, headers: { location: "http://169.254.169.254/" } },
      "/slow": { status: 200, delayMs: 3000 },
      "/big": { status: 200, body: Buffer.alloc(200_000, 97) },
    },
  });
  plain = await startHttpServer({ routes: { "/": { status: 503, headers: { server: "busy" }, body: "maintenance" } } });
  probeAgent = await startHttpServer({
    routes: {
      "/probe": (req, res) => {
        let body = "";
        req.on("data", (c) => (body += c));
        req.on("end", () => {
          const { url } = JSON.parse(body) as { url: string };
          res.writeHead(200, { "content-type": "application/json" }).end(
            JSON.stringify({
              reachable: true,
              up: true,
              status: 200,
              finalUrl: url,
              redirects: 0,
              address: "198.51.100.7",
              timing: null,
              error: null,
              checkedAt: new Date().toISOString(),
            }),
          );
        });
      },
    },
  });
  dns = await startFakeDnsServer({ records: { "shop.test": [{ type: "A", data: "127.0.0.1" }] } });
  Object.assign(process.env, {
    SERVICE_EXTRA_CA_FILE: pki.caFile,
    SERVICE_ALLOW_PRIVATE_TARGETS: "1",
    SERVICE_TARGET_RESOLVER: "configured",
    SERVICE_DNS_SERVERS: dns.address,
  });
});

afterAll(async () => {
  process.env = env;
  await Promise.all([dns.close(), plain.close(), secure.close(), probeAgent.close()]);
});

afterEach(() => {
  delete process.env.SERVICE_PROBE_LOCATIONS;
  delete process.env.SERVICE_ONLINE_CHECK_TIMEOUT_MS;
});

describe("GET /host/{host}/status domain function", () => {
  it("follows the redirect chain and reports timing and notable headers", async () => {
    const r = await getHostStatusOrThrow(`shop.test:${secure.port}`);
    expect(r.reachable).toBe(true);
    expect(r.status).toBe(200);
    expect(r.ok).toBe(true);
    expect(r.finalUrl).toBe(`https://shop.test:${secure.port}/home`);
    expect(r.redirects.map((h) => h.status)).toEqual([301, 200]);
    expect(r.redirectOutcome).toBe("followed");
    expect(r.tls).toMatchObject({ authorized: true, error: null });
    expect(r.headers).toMatchObject({
      server: "nginx",
      strictTransportSecurity: "max-age=63072000",
      xFrameOptions: "DENY",
      cdn: "Cloudflare",
    });
    expect(r.missingSecurityHeaders).toEqual(["content-security-policy", "x-content-type-options", "referrer-policy"]);
    expect(r.timing?.connectMs).not.toBeNull();
    expect(r.timing?.tlsMs).not.toBeNull();
    expect(r.timing?.ttfbMs).toBeGreaterThan(0);
    expect(secure.requests.some((q) => q.host === `shop.test:${secure.port}`)).toBe(true);
  });

  it("reports a redirect to a forbidden address as blocked, without following it", async () => {
    secure.setRoute("/", { status: 302, headers: { location: "/to-metadata" } });
    try {
      const r = await getHostStatusOrThrow(`shop.test:${secure.port}`);
      expect(r.redirectOutcome).toBe("blocked");
      expect(r.blockedRedirect).toMatchObject({ url: "http://169.254.169.254/" });
      expect(r.status).toBe(302);
    } finally {
      secure.setRoute("/", { status: 301, headers: { location: "/home" } });
    }
  });

  it("falls back to plain HTTP for a port that does not speak TLS, and reports a 503", async () => {
    const r = await getHostStatusOrThrow(`127.0.0.1:${plain.port}`);
    expect(r.requestedUrl).toBe(`http://127.0.0.1:${plain.port}/`);
    expect(r).toMatchObject({ reachable: true, status: 503, statusText: "Service Unavailable", ok: false, tls: null });
    expect(r.missingSecurityHeaders).not.toContain("strict-transport-security");
  });

  it("reports a closed explicit port as unreachable", async () => {
    const closed = await startHttpServer();
    await closed.close();
    const r = await getHostStatusOrThrow(`127.0.0.1:${closed.port}`);
    expect(r).toMatchObject({ reachable: false, status: null, error: { kind: "connect" } });
  });

  it("refuses a port browsers refuse", async () => {
    await expect(getHostStatusOrThrow("127.0.0.1:25")).rejects.toMatchObject({ appCode: "TARGET_FORBIDDEN" });
  });

  it("404s a host name that does not exist", async () => {
    await expect(getHostStatusOrThrow("nowhere.test")).rejects.toMatchObject({ appCode: "DOMAIN_NOT_FOUND" });
  });
});

describe("POST /online-check domain function", () => {
  it("checks from the local probe by default", async () => {
    const r = await runOnlineCheck(`${plain.url}/`);
    expect(r.totalLocations).toBe(1);
    expect(r.locations[0]).toMatchObject({ location: "local", reachable: true, up: false, status: 503 });
    expect(r.online).toBe(false);
  });

  it("asks remote probe agents and reports an unreachable one without failing", async () => {
    process.env.SERVICE_PROBE_LOCATIONS = `local,eu-west=${probeAgent.url}/probe,us-east=http://127.0.0.1:1/probe`;
    const r = await runOnlineCheck(`https://shop.test:${secure.port}/`);
    expect(r.locations.map((l) => [l.location, l.up])).toEqual([
      ["local", true],
      ["eu-west", true],
      ["us-east", false],
    ]);
    expect(r.locations[2]!.error?.kind).toBe("probe_unavailable");
    expect(r.online).toBe(true);
    expect(r.upLocations).toBe(2);
    expect(r.sources).toHaveLength(3);
  });

  it("bounds a slow site by the probe timeout", async () => {
    process.env.SERVICE_ONLINE_CHECK_TIMEOUT_MS = "500";
    const t0 = Date.now();
    const r = await runOnlineCheck(`https://shop.test:${secure.port}/slow`);
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(r.locations[0]!.error?.kind).toBe("timeout");
    expect(r.online).toBe(false);
  });

  it("reads at most a bounded body", async () => {
    const r = await runOnlineCheck(`https://shop.test:${secure.port}/big`);
    expect(r.locations[0]).toMatchObject({ status: 200, up: true });
    const raw = await safeFetch(`https://shop.test:${secure.port}/big`, { maxBytes: 1024 });
    expect(raw.truncated).toBe(true);
    expect(raw.body.length).toBe(1024);
  });
});
