import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "../harness";
import { startAppWithFakeDns } from "../fakes/app-with-dns";
import type { FakeDnsServer } from "../fakes/dns-server";
import { callProcedure } from "../dns/call";

let app: TestApp;
let dns: FakeDnsServer;
beforeAll(async () => {
  ({ app, dns } = await startAppWithFakeDns({
    "acme.test": [
      { type: "MX", data: { preference: 10, exchange: "mx.acme.test" } },
      { type: "TXT", data: ["v=spf1 mx -all"] },
    ],
    "_dmarc.acme.test": [{ type: "TXT", data: ["v=DMARC1; p=reject; rua=mailto:d@acme.test"] }],
  }));
});
afterAll(() => dns.close());

describe("email.check", () => {
  it("answers with the risk object for one unit", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await callProcedure(app, ws.apiKey, "email.emailCheck", { email: "info@acme.test" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      normalized: "info@acme.test",
      roleAccount: true,
      mx: { status: "present" },
      riskLevel: "low",
    });
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("asks no resolver about a special-use domain: it receives no mail", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const before = dns.queries.length;
    const res = await callProcedure(app, ws.apiKey, "email.emailCheck", {
      email: "ops@mail.foo.invalid",
    });
    expect(res.status).toBe(200);
    expect(res.body.mx).toMatchObject({ status: "domain_not_found", acceptsMail: false });
    expect(res.body.mx.reason).toContain("special-use name");
    expect(dns.queries.length).toBe(before);
  });

  it("answers an invalid address with 200 and syntax.valid false", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await callProcedure(app, ws.apiKey, "email.emailCheck", { email: "nobody-at-acme.test" });
    expect(res.status).toBe(200);
    expect(res.body.syntax.valid).toBe(false);
  });

  it.each([{}, { email: "" }, { email: 42 }, { email: `${"a".repeat(320)}@x.test` }])(
    "refuses %j with 400 and no unit",
    async (input) => {
      const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
      const res = await callProcedure(app, ws.apiKey, "email.emailCheck", input);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_REQUEST");
      expect(await app.used(ws.workspaceId)).toBe(0);
    },
  );
});

describe("email.security", () => {
  it("answers SPF, DMARC and DKIM with pass/warn/fail for one unit", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await callProcedure(app, ws.apiKey, "email.emailSecurity", { domain: "ACME.test" });
    expect(res.status).toBe(200);
    expect(res.body.domain).toBe("acme.test");
    expect(res.body.spf).toMatchObject({ status: "pass", allQualifier: "-", dnsLookups: 1 });
    expect(res.body.dmarc).toMatchObject({ status: "pass", policy: "reject" });
    expect(res.body.dkim.status).toBe("warn");
    expect(res.body.overall.status).toBe("warn");
    expect(await app.used(ws.workspaceId)).toBe(1);
  });

  it("answers 503 instead of 'no SPF, no DMARC' when the resolver says a well-known domain does not exist", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await callProcedure(app, ws.apiKey, "email.emailSecurity", { domain: "gmail.com" });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("UPSTREAM_UNAVAILABLE");
    expect(res.body.error.message).toContain("the resolver is unreliable");
  });

  it.each([
    { domain: "localhost" },
    { domain: "_dmarc.acme.test" },
    { domain: "a b.test" },
    { domain: "acme.test", selectors: "bad selector" },
  ])("refuses %j with 400 and no unit", async (input) => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await callProcedure(app, ws.apiKey, "email.emailSecurity", input);
    expect(res.status).toBe(400);
    expect(await app.used(ws.workspaceId)).toBe(0);
  });
});
