import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEmailSecurityOrThrow } from "../../server/email/security/posture";
import { parseSpf, countedLookups } from "../../server/email/security/spf";
import { parseDkimKey } from "../../server/email/security/dkim";
import { startFakeDnsServer, type FakeDnsServer, type FakeRecord } from "../fakes/dns-server";

const txt = (text: string, ttl = 300): FakeRecord => ({ type: "TXT", data: text.match(/.{1,255}/g) ?? [""], ttl });
const dkimKey = (bits: number) =>
  generateKeyPairSync("rsa", { modulusLength: bits })
    .publicKey.export({ type: "spki", format: "der" })
    .toString("base64");

let dns: FakeDnsServer;
beforeAll(async () => {
  const records: Record<string, FakeRecord[]> = {
    // A well-configured domain.
    "good.test": [txt("v=spf1 ip4:192.0.2.0/24 include:_spf.provider.test -all"), txt("google-site-verification=abc")],
    "_spf.provider.test": [txt("v=spf1 ip4:198.51.100.0/24 include:_spf2.provider.test ~all")],
    "_spf2.provider.test": [txt("v=spf1 ip6:2001:db8::/32 ~all")],
    "_dmarc.good.test": [
      txt(
        "v=DMARC1; p=reject; sp=quarantine; pct=100; rua=mailto:dmarc@good.test,mailto:x@reports.test; ruf=mailto:forensic@good.test; adkim=s",
      ),
    ],
    "selector1._domainkey.good.test": [txt(`v=DKIM1; k=rsa; p=${dkimKey(2048)}`)],
    // A domain with every problem.
    "bad.test": [
      txt("v=spf1 a mx include:i1.bad.test include:i2.bad.test include:i3.bad.test include:missing.bad.test ?all"),
    ],
    "i1.bad.test": [txt("v=spf1 a mx ptr exists:%{i}.x.bad.test include:i4.bad.test -all")],
    "i2.bad.test": [txt("v=spf1 a mx -all")],
    "i3.bad.test": [txt("v=spf1 a mx -all")],
    "i4.bad.test": [txt("v=spf1 a mx -all")],
    "_dmarc.bad.test": [txt("v=DMARC1; p=none")],
    "k1._domainkey.bad.test": [txt(`v=DKIM1; p=${dkimKey(1024)}`)],
    // Redirect inherits the all qualifier; the org-domain DMARC record covers sub.inherit.test.
    "redirect.test": [txt("v=spf1 redirect=_spf.redirect.test")],
    "_spf.redirect.test": [txt("v=spf1 ip4:203.0.113.0/24 -all")],
    "_dmarc.redirect.test": [txt("v=DMARC1; p=quarantine; rua=mailto:d@redirect.test")],
    "mail.redirect.test": [txt("v=spf1 -all")],
    // Two SPF records.
    "double.test": [txt("v=spf1 -all"), txt("v=spf1 ~all")],
    "nothing.test": [{ type: "A", data: "192.0.2.9" }],
  };
  dns = await startFakeDnsServer({ records });
  process.env.SERVICE_DNS_SERVERS = dns.address;
});
afterAll(() => dns.close());

describe("SPF parsing", () => {
  it("splits mechanisms, qualifiers and modifiers and counts the DNS-querying terms", () => {
    const p = parseSpf("v=spf1 +a mx/24 ip4:192.0.2.1 ~include:x.test exists:%{i}.y.test redirect=z.test exp=e.test");
    expect(p.mechanisms).toEqual([
      { qualifier: "+", mechanism: "a", value: null },
      { qualifier: null, mechanism: "mx", value: "/24" },
      { qualifier: null, mechanism: "ip4", value: "192.0.2.1" },
      { qualifier: "~", mechanism: "include", value: "x.test" },
      { qualifier: null, mechanism: "exists", value: "%{i}.y.test" },
    ]);
    expect(p.modifiers).toEqual([
      { name: "redirect", value: "z.test" },
      { name: "exp", value: "e.test" },
    ]);
    expect(countedLookups(p)).toBe(5);
    expect(p.errors).toEqual([]);
  });

  it("reports unknown terms as permerror", () => {
    expect(parseSpf("v=spf1 ip5:1.2.3.4 -all").errors[0]).toMatch(/Unknown term "ip5:1.2.3.4"/);
  });
});

describe("DKIM keys", () => {
  it("reads the RSA key size and a revoked key", () => {
    const k = parseDkimKey("s", "s._domainkey.x", `v=DKIM1; k=rsa; p=${dkimKey(1024)}`);
    expect(k.keyBits).toBe(1024);
    expect(parseDkimKey("s", "n", "v=DKIM1; p=").revoked).toBe(true);
    expect(parseDkimKey("s", "n", "v=DKIM1; p=notbase64!!").error).toMatch(/not a valid public key/);
  });
});

describe("getEmailSecurityOrThrow", () => {
  it("passes a domain with SPF -all, enforced DMARC with reports and a 2048-bit DKIM key", async () => {
    const r = await getEmailSecurityOrThrow({ domain: "good.test" });
    expect(r.spf).toMatchObject({ status: "pass", allQualifier: "-", dnsLookups: 2, dnsLookupLimit: 10 });
    expect(r.spf.includes.map((i) => [i.domain, i.depth, i.lookups])).toEqual([
      ["_spf.provider.test", 1, 1],
      ["_spf2.provider.test", 2, 0],
    ]);
    expect(r.dmarc).toMatchObject({
      status: "pass",
      policy: "reject",
      subdomainPolicy: "quarantine",
      pct: 100,
      rua: ["mailto:dmarc@good.test", "mailto:x@reports.test"],
      ruf: ["mailto:forensic@good.test"],
      adkim: "s",
      inherited: false,
    });
    expect(r.dkim.status).toBe("pass");
    expect(r.dkim.keys).toEqual([expect.objectContaining({ selector: "selector1", keyType: "rsa", keyBits: 2048 })]);
    expect(r.overall.status).toBe("pass");
    expect(r.sources.resolver.answeredBy).toBe(dns.address);
  });

  it("fails SPF over the 10-lookup limit, counting through nested includes, and warns on p=none and a 1024-bit key", async () => {
    const r = await getEmailSecurityOrThrow({ domain: "bad.test" });
    // bad.test: a, mx, 4 includes = 6; i1: a, mx, ptr, exists, include = 5; i2..i4: 2 each = 6 -> 17
    expect(r.spf.dnsLookups).toBe(17);
    expect(r.spf.status).toBe("fail");
    expect(r.spf.reason).toMatch(/17 DNS lookups, over the limit of 10/);
    expect(r.spf.includes.find((i) => i.domain === "missing.bad.test")?.error).toMatch(/No SPF record/);
    expect(r.spf.allQualifier).toBe("?");
    expect(r.dmarc).toMatchObject({ status: "warn", policy: "none" });
    expect(r.dmarc.reason).toMatch(/p=quarantine/);
    expect(r.dkim).toMatchObject({ status: "warn" });
    expect(r.dkim.reason).toMatch(/1024-bit RSA key/);
    expect(r.overall.status).toBe("fail");
  });

  it("takes the all qualifier through redirect= and inherits DMARC from the organizational domain", async () => {
    const r = await getEmailSecurityOrThrow({ domain: "redirect.test" });
    expect(r.spf).toMatchObject({ status: "pass", allQualifier: "-", dnsLookups: 1 });
    const sub = await getEmailSecurityOrThrow({ domain: "mail.redirect.test" });
    expect(sub.dmarc).toMatchObject({
      status: "pass",
      inherited: true,
      recordName: "_dmarc.redirect.test",
      policy: "quarantine",
      subdomainPolicy: "quarantine",
    });
  });

  it("fails a domain with two SPF records and one without any record, with what to publish", async () => {
    const d = await getEmailSecurityOrThrow({ domain: "double.test" });
    expect(d.spf.status).toBe("fail");
    expect(d.spf.reason).toMatch(/2 SPF records/);
    const n = await getEmailSecurityOrThrow({ domain: "nothing.test" });
    expect(n.spf).toMatchObject({ status: "fail", record: null });
    expect(n.spf.reason).toMatch(/publish a TXT record/);
    expect(n.dmarc).toMatchObject({ status: "fail", record: null });
    expect(n.dmarc.reason).toMatch(/_dmarc\.nothing\.test/);
    expect(n.dkim.status).toBe("warn");
  });

  it("checks a DKIM selector the caller names", async () => {
    dns.setRecords("custom2024._domainkey.nothing.test", [txt(`v=DKIM1; k=rsa; p=${dkimKey(2048)}`)]);
    const r = await getEmailSecurityOrThrow({ domain: "nothing.test", selectors: ["custom2024"] });
    expect(r.dkim.selectorsChecked[0]).toBe("custom2024");
    expect(r.dkim).toMatchObject({
      status: "pass",
      keys: [expect.objectContaining({ selector: "custom2024", keyBits: 2048 })],
    });
  });

  it("throws UPSTREAM_UNAVAILABLE when no resolver answers any check", async () => {
    process.env.SERVICE_DNS_TIMEOUT_MS = "100";
    dns.down = true;
    try {
      await expect(getEmailSecurityOrThrow({ domain: "good.test" })).rejects.toMatchObject({
        appCode: "UPSTREAM_UNAVAILABLE",
      });
    } finally {
      dns.down = false;
      delete process.env.SERVICE_DNS_TIMEOUT_MS;
    }
  });
});
