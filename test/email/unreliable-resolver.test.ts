// A resolver that answers NXDOMAIN for every name (issue 22, item 21) must not make admin@gmail.com critical or
// google.com "does not exist": a well-known domain that "does not exist" means the resolver is unreliable.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppWithFakeDns } from "../fakes/app-with-dns";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";
import type { TestApp } from "../harness";

let app: TestApp;
let dns: FakeDnsServer;
let nx: FakeDnsServer;

beforeAll(async () => {
  ({ app, dns } = await startAppWithFakeDns({}));
  nx = await startFakeDnsServer({ handler: () => "NXDOMAIN" });
  process.env.SERVICE_DNS_SERVERS = nx.address;
});
afterAll(async () => {
  await nx.close();
  await dns.close();
});

describe("a resolver that says NXDOMAIN for everything", () => {
  it("does not make admin@gmail.com risky: mail acceptance is unknown and says why", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/email/check", { key: ws.apiKey, body: { email: "admin@gmail.com" } });
    expect(res.status).toBe(200);
    expect(res.body.mx.status).toBe("unavailable");
    expect(res.body.mx.reason).toMatch(/resolver is unreliable/);
    expect(res.body.score).toBeLessThan(50);
    expect(res.body.riskLevel).not.toBe("critical");
  });

  it("does not say google.com does not exist", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("GET", "/v1/domain/google.com", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.exists).not.toBe(false);
    expect(JSON.stringify(res.body)).toMatch(/resolver is unreliable/);
  });

  it("still says an unknown domain does not exist", async () => {
    const ws = await app.seedWorkspace();
    const res = await app.request("POST", "/v1/email/check", {
      key: ws.apiKey,
      body: { email: "a@nowhere-at-all.com" },
    });
    expect(res.body.mx.status).toBe("domain_not_found");
  });
});
