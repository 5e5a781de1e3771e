// GET /v1/email/security answers the mail transport parts (MTA-STS, TLS-RPT, DANE, BIMI) beside SPF, DMARC and DKIM,
// through the real REST API; the checks themselves are tested in transport-security.test.ts.
import { randomBytes } from "node:crypto";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LookupAnswer } from "../../app/dashboard/_components/LookupAnswer";
import type { TestApp } from "../harness";
import { startAppWithFakeDns } from "../fakes/app-with-dns";
import type { FakeDnsServer } from "../fakes/dns-server";

let app: TestApp;
let dns: FakeDnsServer;
beforeAll(async () => {
  ({ app, dns } = await startAppWithFakeDns({
    "post.test": [
      { type: "TXT", data: ["v=spf1 mx -all"] },
      { type: "MX", data: { preference: 10, exchange: "mx.post.test" } },
    ],
    "_dmarc.post.test": [{ type: "TXT", data: ["v=DMARC1; p=quarantine; rua=mailto:d@post.test"] }],
    "_smtp._tls.post.test": [{ type: "TXT", data: ["v=TLSRPTv1; rua=mailto:tls@post.test"] }],
    "_25._tcp.mx.post.test": [
      { type: "TLSA", data: { usage: 3, selector: 1, matchingType: 1, certificate: randomBytes(32) } },
    ],
    "default._bimi.post.test": [{ type: "TXT", data: ["v=BIMI1; l=http://post.test/logo.svg"] }],
  }));
});
afterAll(() => dns.close());

describe("GET /v1/email/security", () => {
  it("answers MTA-STS, TLS-RPT, DANE and BIMI, and only the failing BIMI lowers the overall verdict", async () => {
    const ws = await app.seedWorkspace({ plans: ["suite_starter"] });
    const res = await app.request("GET", "/v1/email/security?domain=post.test", { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.mtaSts).toMatchObject({ status: "warn", present: false, mode: null, mxNotCovered: [] });
    expect(res.body.tlsRpt).toMatchObject({ status: "pass", present: true, rua: ["mailto:tls@post.test"] });
    expect(res.body.dane).toMatchObject({
      status: "warn",
      present: true,
      dnssecValidated: false,
      hosts: [{ host: "mx.post.test", name: "_25._tcp.mx.post.test", lookup: "found" }],
    });
    expect(res.body.dane.reason).toMatch(/unverifiable/);
    expect(res.body.bimi).toMatchObject({ status: "fail", logoUrl: "http://post.test/logo.svg" });
    expect(res.body.overall.status).toBe("fail");
    expect(res.body.overall.reason).toMatch(/BIMI failed/);
    expect(await app.used(ws.workspaceId)).toBe(1);

    // The dashboard's summary card says each part in words with its reason; the structure stays behind Details.
    const html = renderToStaticMarkup(createElement(LookupAnswer, { value: res.body }));
    expect(html).toContain('data-kind="email-security"');
    expect(html).toContain("Problem found");
    expect(html).toMatch(/MTA-STS \(enforced TLS\): needs attention<\/span> No MTA-STS policy: senders may deliver/);
    expect(html).toContain("TLS reporting: in place");
    expect(html).toContain("DANE: needs attention");
    expect(html).toMatch(/BIMI logo: problem<\/span> The BIMI record is unusable/);
  });
});
