// The TLS part of a scan end to end: HTTPS fake sites on 127.0.0.1 with an expired, a self-signed and a wrong-name
// certificate (made at test time from the test's own CA, test/fakes/tls-server.ts), each the twin of b.test (B, 75)
// but for its certificate. Through POST /v1/scans: the TLS test's result, points and reason, and what else a bad
// certificate costs (the redirect to HTTPS and HSTS no longer count). b.test's valid certificate is trusted only
// through the test CA (SERVICE_EXTRA_CA_FILE): without it the same site gets an invalid chain.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../harness";
import { BAD_CERT_SITES, startSiteWorld, type SiteWorld } from "./sites";

let app: TestApp;
let world: SiteWorld;
const env = { ...process.env };

beforeAll(async () => {
  app = await createTestApp();
  world = await startSiteWorld();
  Object.assign(process.env, {
    SERVICE_TARGET_RESOLVER: "configured",
    SERVICE_DNS_SERVERS: world.dns.address,
    SERVICE_ALLOW_PRIVATE_TARGETS: "1",
  });
});

afterAll(async () => {
  process.env = env;
  await world.close();
});

beforeEach(() => {
  process.env.SERVICE_EXTRA_CA_FILE = world.caFile;
});

async function scanOf(name: string) {
  const ws = await app.seedWorkspace();
  const res = await app.request("POST", "/v1/scans", { key: ws.apiKey, body: { url: world.startUrl(name) } });
  expect(res.status).toBe(200);
  expect(await app.used(ws.workspaceId)).toBe(1);
  const test = (id: string) => res.body.tests.find((t: any) => t.id === id);
  return { body: res.body, test };
}

const BAD = [
  {
    cert: "expired",
    result: "tls-expired",
    reason: /has expired/,
    detail: /^The certificate expired on \d{4}-\d{2}-\d{2}\.$/,
  },
  { cert: "self-signed", result: "tls-self-signed", reason: /self-signed/, detail: /self-signed/i },
  {
    cert: "wrong-name",
    result: "tls-name-mismatch",
    reason: /does not cover this host name/,
    detail: /does not cover wrongname\.test/,
  },
] as const;

describe("bad certificates", () => {
  it("the valid twin: b.test's certificate from the test CA is tls-valid, 0 points, grade B", async () => {
    const { body, test } = await scanOf("b.test");
    expect(test("tls")).toMatchObject({
      result: "tls-valid",
      points: 0,
      passed: true,
      reason: expect.stringMatching(/certificate is valid/),
    });
    expect(test("redirection").result).toBe("redirection-to-https");
    expect(test("strict-transport-security").result).toBe("hsts-implemented-max-age-at-least-six-months");
    expect(body.tls).toMatchObject({ connected: true, valid: true, issuer: "Service Test Root CA", error: null });
    expect(body).toMatchObject({ score: 75, grade: "B" });
  });

  it.each(BAD)(
    "$cert: the TLS test says why, the redirect and HSTS stop counting, and the grade falls from B to F",
    async (row) => {
      const name = BAD_CERT_SITES[row.cert];
      const { body, test } = await scanOf(name);
      expect(body).toMatchObject({
        host: name,
        status: "done",
        final_url: `https://${name}:${world.httpsPortOf(name)}/`,
      });
      const tls = test("tls");
      expect(tls).toMatchObject({
        result: row.result,
        points: -20,
        passed: false,
        counted: true,
        fix: expect.any(String),
      });
      expect(tls.reason).toMatch(row.reason);
      expect(tls.detail).toMatch(row.detail);
      // The browser refuses the certificate, so the redirect to HTTPS and the HSTS header are worth nothing.
      expect(test("redirection")).toMatchObject({ result: "redirection-invalid-cert", points: -20 });
      expect(test("strict-transport-security")).toMatchObject({ result: "hsts-invalid-cert", points: -20 });
      expect(body.tls).toMatchObject({ connected: true, valid: false });
      // b.test's 75, less 20 for each of TLS, redirection and HSTS.
      expect(body).toMatchObject({
        score: 15,
        grade: "F",
        summary: { penalties: -85, bonuses: 0, bonuses_applied: false },
      });
    },
  );

  it("the expired certificate chains to the trusted test CA: it is its date that fails, not its issuer", async () => {
    const { body } = await scanOf(BAD_CERT_SITES.expired);
    expect(body.tls).toMatchObject({ issuer: "Service Test Root CA", days_left: expect.any(Number) });
    expect(body.tls.days_left).toBeLessThan(0);
  });

  it("the wrong-name certificate has a valid chain: only the name fails", async () => {
    const { body } = await scanOf(BAD_CERT_SITES["wrong-name"]);
    expect(body.tls).toMatchObject({
      issuer: "Service Test Root CA",
      error: expect.stringMatching(/does not cover wrongname\.test/),
    });
    expect(body.tls.days_left).toBeGreaterThan(80);
  });

  it("without the test CA in the trust store, b.test's certificate is an unknown issuer: tls-invalid-chain", async () => {
    delete process.env.SERVICE_EXTRA_CA_FILE;
    const { body, test } = await scanOf("b.test");
    expect(test("tls")).toMatchObject({
      result: "tls-invalid-chain",
      points: -20,
      reason: expect.stringMatching(/does not verify/),
    });
    expect(test("tls").detail).toEqual(expect.any(String));
    expect(body).toMatchObject({ score: 15, grade: "F" });
  });
});
