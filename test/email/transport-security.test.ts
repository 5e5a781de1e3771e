// Mail transport security in /email/security (issue 26, item 4): MTA-STS with its policy fetched over HTTPS from a
// server on 127.0.0.1 (trusted through the test CA, reached through the SSRF guard), TLS-RPT, DANE and BIMI, against
// a real fake DNS server. The REST answer is in transport-security-rest.test.ts.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEmailSecurityOrThrow } from "../../server/email/security/posture";
import { checkSenderPosture, knownVerdicts, postureChanged } from "../../server/senders/posture";
import { mxMatches, parseMtaStsPolicy } from "../../server/email/security/mta-sts-policy";
import { startFakeDnsServer, type FakeDnsServer, type FakeRecord } from "../fakes/dns-server";
import { startHttpServer, type FakeHttpServer } from "../fakes/http-server";
import { createTestPki } from "../fakes/tls-server";

const txt = (text: string): FakeRecord => ({ type: "TXT", data: text.match(/.{1,255}/g) ?? [""] });
const mx = (...hosts: string[]): FakeRecord[] =>
  hosts.map((exchange, i) => ({ type: "MX", data: { preference: 10 * (i + 1), exchange } }));
const a = (ip: string): FakeRecord => ({ type: "A", data: ip });
const tlsa = (usage: number, selector: number, matchingType: number, bytes = 32): FakeRecord => ({
  type: "TLSA",
  data: { usage, selector, matchingType, certificate: randomBytes(bytes) },
});
const dkimKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .publicKey.export({ type: "spki", format: "der" })
  .toString("base64");

/** SPF, DMARC and DKIM that pass, so the overall verdict shows what the transport parts do to it. */
const basics = (d: string, dmarc = "v=DMARC1; p=reject; rua=mailto:d@x.test"): Record<string, FakeRecord[]> => ({
  [`_dmarc.${d}`]: [txt(dmarc)],
  [`selector1._domainkey.${d}`]: [txt(`v=DKIM1; k=rsa; p=${dkimKey}`)],
});
const stsDomain = (d: string, hosts: string[], policyIp = "127.0.0.1"): Record<string, FakeRecord[]> => ({
  [d]: [txt("v=spf1 mx -all"), ...mx(...hosts)],
  ...basics(d),
  [`_mta-sts.${d}`]: [txt("v=STSv1; id=2026a1")],
  [`mta-sts.${d}`]: [a(policyIp)],
});
const policy = (mode: string, ...patterns: string[]) =>
  ["version: STSv1", `mode: ${mode}`, ...patterns.map((p) => `mx: ${p}`), "max_age: 604800", ""].join("\r\n");

const POLICIES: Record<string, { status?: number; body: string; type?: string; location?: string }> = {
  "mta-sts.enforce.test": { body: policy("enforce", "*.enforce.test") },
  "mta-sts.partial.test": { body: policy("enforce", "mx1.partial.test") },
  "mta-sts.testing.test": { body: policy("testing", "*.testing.test") },
  "mta-sts.none.test": { body: policy("none") },
  "mta-sts.invalid.test": { body: "version: STSv2\r\nmode: strict\r\n" },
  "mta-sts.html.test": { body: policy("enforce", "*.html.test"), type: "text/html" },
  "mta-sts.redirect.test": { status: 301, body: "", location: "https://elsewhere.test/policy" },
  "mta-sts.badcert.test": { body: policy("enforce", "*.badcert.test") },
};

let dns: FakeDnsServer;
let site: FakeHttpServer;
const saved: Record<string, string | undefined> = {};
const ENV = [
  "SERVICE_DNS_SERVERS",
  "SERVICE_TARGET_RESOLVER",
  "SERVICE_EXTRA_CA_FILE",
  "SERVICE_ALLOW_PRIVATE_TARGETS",
  "SERVICE_MTA_STS_PORT",
];

beforeAll(async () => {
  const pki = createTestPki();
  // mta-sts.badcert.test is left out of the certificate: its policy host fails verification.
  const names = Object.keys(POLICIES).filter((h) => h !== "mta-sts.badcert.test");
  site = await startHttpServer({
    tls: pki.issue({ names }),
    routes: {
      "/.well-known/mta-sts.txt": (req: http.IncomingMessage, res: http.ServerResponse) => {
        const p = POLICIES[(req.headers.host ?? "").replace(/:\d+$/, "")];
        if (!p) return void res.writeHead(404).end();
        const headers: Record<string, string> = { "content-type": p.type ?? "text/plain" };
        if (p.location) headers.location = p.location;
        res.writeHead(p.status ?? 200, headers).end(p.body);
      },
    },
  });
  dns = await startFakeDnsServer({
    records: {
      ...stsDomain("enforce.test", ["mx1.enforce.test", "mx2.enforce.test"]),
      ...stsDomain("partial.test", ["mx1.partial.test", "backup.other.test"]),
      ...stsDomain("testing.test", ["mx.testing.test"]),
      ...stsDomain("none.test", ["mx.none.test"]),
      ...stsDomain("invalid.test", ["mx.invalid.test"]),
      ...stsDomain("html.test", ["mx.html.test"]),
      ...stsDomain("redirect.test", ["mx.redirect.test"]),
      ...stsDomain("badcert.test", ["mx.badcert.test"]),
      // 127.0.0.2 is loopback too, but nothing listens there: the policy host is unreachable.
      ...stsDomain("unreachable.test", ["mx.unreachable.test"], "127.0.0.2"),
      "bare.test": [txt("v=spf1 mx -all"), ...mx("mx.bare.test")],
      ...basics("bare.test"),
      "_smtp._tls.rpt-good.test": [txt("v=TLSRPTv1; rua=mailto:tls@rpt-good.test,https://reports.example.net/tls")],
      "_smtp._tls.rpt-bad.test": [txt("v=TLSRPTv1; rua=ftp://reports.example.net,mailto:nobody")],
      "_smtp._tls.rpt-norua.test": [txt("v=TLSRPTv1;")],
      "dane.test": mx("mx.dane.test"),
      "_25._tcp.mx.dane.test": [tlsa(3, 1, 1)],
      "signed.test": mx("mx1.signed.test", "mx2.signed.test"),
      "_25._tcp.mx1.signed.test": [tlsa(3, 1, 1)],
      "_25._tcp.mx2.signed.test": [tlsa(2, 1, 1)],
      "pkix.test": mx("mx.pkix.test"),
      "_25._tcp.mx.pkix.test": [tlsa(1, 1, 1)],
      "broken-tlsa.test": mx("mx.broken-tlsa.test"),
      "_25._tcp.mx.broken-tlsa.test": [tlsa(3, 1, 1, 20)],
      ...basics("bimi-good.test"),
      "default._bimi.bimi-good.test": [
        txt("v=BIMI1; l=https://brand.example.net/logo.svg; a=https://brand.example.net/vmc.pem"),
      ],
      ...basics("bimi-monitor.test", "v=DMARC1; p=none; rua=mailto:d@x.test"),
      "default._bimi.bimi-monitor.test": [txt("v=BIMI1; l=https://brand.example.net/logo.svg")],
      ...basics("bimi-http.test"),
      "default._bimi.bimi-http.test": [txt("v=BIMI1; l=http://brand.example.net/logo.svg")],
    },
  });
  dns.signedZones.add("signed.test");
  dns.signedZones.add("pkix.test");
  for (const k of ENV) saved[k] = process.env[k];
  Object.assign(process.env, {
    SERVICE_DNS_SERVERS: dns.address,
    SERVICE_TARGET_RESOLVER: "configured",
    SERVICE_EXTRA_CA_FILE: pki.caFile,
    SERVICE_ALLOW_PRIVATE_TARGETS: "1", // the policy server is on 127.0.0.1; the SSRF test below closes it again
    SERVICE_MTA_STS_PORT: String(site.port),
  });
});
afterAll(async () => {
  for (const k of ENV) saved[k] === undefined ? delete process.env[k] : (process.env[k] = saved[k]);
  await Promise.all([dns.close(), site.close()]);
});

const check = (domain: string) => getEmailSecurityOrThrow({ domain });

describe("MTA-STS policy", () => {
  it("parses the policy file and matches a wildcard against exactly one label", () => {
    expect(parseMtaStsPolicy(policy("enforce", "*.x.test", "MX.Y.TEST."))).toEqual({
      version: "STSv1",
      mode: "enforce",
      maxAge: 604800,
      mxPatterns: ["*.x.test", "mx.y.test"],
      errors: [],
    });
    expect(mxMatches("*.x.test", "mx1.x.test")).toBe(true);
    expect(mxMatches("*.x.test", "a.mx1.x.test")).toBe(false);
    expect(mxMatches("*.x.test", "x.test")).toBe(false);
  });

  it("passes enforce covering every MX, and the overall verdict stays SPF/DMARC/DKIM's", async () => {
    const r = await check("enforce.test");
    expect(r.mtaSts).toMatchObject({
      status: "pass",
      present: true,
      id: "2026a1",
      mode: "enforce",
      maxAge: 604800,
      mxPatterns: ["*.enforce.test"],
      mxNotCovered: [],
      policyUrl: `https://mta-sts.enforce.test:${site.port}/.well-known/mta-sts.txt`,
    });
    expect(r.overall).toEqual({ status: "pass", reason: "SPF, DMARC and DKIM are in place and enforced." });
  });

  it("fails enforce that leaves an MX host uncovered, and that failure lowers the overall verdict", async () => {
    const r = await check("partial.test");
    expect(r.mtaSts).toMatchObject({ status: "fail", mode: "enforce", mxNotCovered: ["backup.other.test"] });
    expect(r.mtaSts.reason).toMatch(/backup\.other\.test match no mx: pattern.*refuse to deliver/);
    expect(r.overall).toEqual({ status: "fail", reason: "MTA-STS failed: see each check's reason." });
  });

  it.each([
    ["testing.test", "warn", "testing", /only reports TLS failures.*mode: enforce/],
    ["none.test", "warn", "none", /withdraws the policy/],
    ["invalid.test", "fail", null, /policy is invalid.*version: STSv2 is not STSv1.*mode: strict/],
    ["html.test", "fail", null, /served as "text\/html", not text\/plain/],
    ["redirect.test", "fail", null, /redirect \(HTTP 301\), which senders do not follow/],
    ["badcert.test", "fail", null, /certificate of mta-sts\.badcert\.test does not verify/],
    ["unreachable.test", "fail", null, /mta-sts\.unreachable\.test could not be reached: connection failed/],
  ])("%s: %s", async (domain, status, mode, reason) => {
    const r = await check(domain);
    expect(r.mtaSts).toMatchObject({ status, mode, present: true });
    expect(r.mtaSts.reason).toMatch(reason);
  });

  it("warns with what to publish when there is no MTA-STS record, and the overall verdict ignores it", async () => {
    const r = await check("bare.test");
    expect(r.mtaSts).toMatchObject({ status: "warn", present: false, policyUrl: null });
    expect(r.mtaSts.reason).toMatch(/^No MTA-STS policy: senders may deliver over plaintext if STARTTLS is stripped/);
    expect(r.mtaSts.reason).toMatch(/_mta-sts\.bare\.test/);
    expect(r.overall.status).toBe("pass");
  });

  it("refuses the policy fetch to a loopback address when private targets are not allowed, and says so", async () => {
    const before = site.requests.length;
    delete process.env.SERVICE_ALLOW_PRIVATE_TARGETS;
    try {
      const r = await check("enforce.test");
      expect(r.mtaSts.status).toBe("fail");
      expect(r.mtaSts.reason).toMatch(/policy was not fetched: mta-sts\.enforce\.test is not a public internet host/);
      expect(r.mtaSts.mode).toBeNull();
      expect(site.requests.length).toBe(before);
    } finally {
      process.env.SERVICE_ALLOW_PRIVATE_TARGETS = "1";
    }
  });
});

describe("TLS-RPT", () => {
  it.each([
    ["rpt-good.test", "pass", /reported to mailto:tls@rpt-good\.test, https:\/\/reports\.example\.net\/tls/],
    ["rpt-bad.test", "fail", /ftp:\/\/reports\.example\.net, mailto:nobody are not a mailto: address or https: URL/],
    ["rpt-norua.test", "fail", /no rua= address/],
    ["bare.test", "warn", /^No TLS-RPT record: .*v=TLSRPTv1; rua=mailto:tls-reports@bare\.test/],
  ])("%s: %s", async (domain, status, reason) => {
    const r = await check(domain);
    expect(r.tlsRpt.status).toBe(status);
    expect(r.tlsRpt.reason).toMatch(reason);
  });
});

describe("DANE", () => {
  it("reports TLSA records the resolver did not validate as unverifiable", async () => {
    const r = await check("dane.test");
    expect(r.dane).toMatchObject({ status: "warn", present: true, dnssecValidated: false });
    expect(r.dane.reason).toMatch(
      /TLSA records found for mx\.dane\.test but the resolver did not validate them with DNSSEC, so they cannot be trusted: unverifiable/,
    );
    expect(r.dane.hosts[0]).toMatchObject({
      host: "mx.dane.test",
      name: "_25._tcp.mx.dane.test",
      lookup: "found",
      records: [expect.objectContaining({ usage: 3, selector: 1, matchingType: 1, problem: null })],
    });
    expect(r.overall.reason).not.toMatch(/DANE/); // a warn of a transport part never enters the verdict
  });

  it("passes validated 3 1 1 and 2 1 1 records on every MX, and warns on usage 1 (PKIX-EE)", async () => {
    const r = await check("signed.test");
    expect(r.dane).toMatchObject({ status: "pass", dnssecValidated: true });
    expect(r.dane.hosts.map((h) => h.lookup)).toEqual(["found", "found"]);
    const p = await check("pkix.test");
    expect(p.dane.status).toBe("warn");
    expect(p.dane.reason).toMatch(/usage 1 \(PKIX-EE\) is discouraged for SMTP/);
  });

  it("fails a malformed TLSA record and warns when there is none", async () => {
    const r = await check("broken-tlsa.test");
    expect(r.dane.status).toBe("fail");
    expect(r.dane.reason).toMatch(
      /Malformed TLSA record: mx\.broken-tlsa\.test: a SHA-256 digest is 32 bytes, this one 20/,
    );
    const none = await check("bare.test");
    expect(none.dane).toMatchObject({ status: "warn", present: false });
    expect(none.dane.reason).toMatch(/No DANE TLSA records.*optional hardening/);
  });
});

describe("BIMI", () => {
  it.each([
    ["bimi-good.test", "pass", /mark certificate evidence at https:\/\/brand\.example\.net\/vmc\.pem/],
    ["bimi-monitor.test", "warn", /BIMI needs DMARC at p=quarantine or p=reject with pct=100 \(now p=none, pct=100\)/],
    ["bimi-http.test", "fail", /l=http:\/\/brand\.example\.net\/logo\.svg is not an https: URL/],
    ["bare.test", "warn", /^No BIMI record\. BIMI is optional/],
  ])("%s: %s", async (domain, status, reason) => {
    const r = await check(domain);
    expect(r.bimi.status).toBe(status);
    expect(r.bimi.reason).toMatch(reason);
  });

  it("reports the logo and evidence URLs without fetching them", async () => {
    const r = await check("bimi-good.test");
    expect(r.bimi).toMatchObject({
      present: true,
      logoUrl: "https://brand.example.net/logo.svg",
      authorityUrl: "https://brand.example.net/vmc.pem",
    });
  });
});

describe("senders' daily check", () => {
  it("stores the four transport verdicts, and only a failing one lowers the sender's overall verdict", async () => {
    const bare = await checkSenderPosture("bare.test", ["selector1"]);
    expect(bare).toMatchObject({
      overall: "pass",
      mta_sts: { status: "warn" },
      tls_rpt: { status: "warn" },
      dane: { status: "warn" },
      bimi: { status: "warn" },
    });
    const partial = await checkSenderPosture("partial.test", ["selector1"]);
    expect(partial.mta_sts).toMatchObject({ status: "fail", reason: expect.stringMatching(/backup\.other\.test/) });
    expect(partial.overall).toBe("fail");
  });

  it("counts a transport verdict that moved as a change, but not its first appearance", async () => {
    const p = await checkSenderPosture("bare.test", ["selector1"]);
    const { transport: _t, ...stored } = knownVerdicts(null, p); // verdicts stored before the transport parts
    const first = knownVerdicts(stored, p);
    expect(postureChanged(stored, first)).toBe(false);
    const fixed = { ...p, tls_rpt: { status: "pass" as const, reason: "ok" } };
    expect(postureChanged(first, knownVerdicts(first, fixed))).toBe(true);
    const outage = { ...p, tls_rpt: { status: "unknown" as const, reason: "no answer" } };
    expect(postureChanged(first, knownVerdicts(first, outage))).toBe(false);
  });
});
