import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkEmail } from "../../server/email/check";
import { canonicalMailbox } from "../../server/email/canonical";
import { parseAddress } from "../../server/email/syntax";
import { suggestDomain } from "../../server/email/typo";
import { startFakeDnsServer, type FakeDnsServer } from "../fakes/dns-server";

let dns: FakeDnsServer;
beforeAll(async () => {
  dns = await startFakeDnsServer({
    records: {
      "gmail.com": [{ type: "MX", data: { preference: 5, exchange: "gmail-smtp-in.l.google.com" }, ttl: 3600 }],
      "mailinator.com": [{ type: "MX", data: { preference: 10, exchange: "mail.mailinator.com" } }],
      "acme.test": [{ type: "MX", data: { preference: 10, exchange: "mx.acme.test" } }],
      "nomail.test": [{ type: "MX", data: { preference: 0, exchange: "." } }],
      "webonly.test": [{ type: "A", data: "192.0.2.80" }],
      "txtonly.test": [{ type: "TXT", data: ["hello"] }],
      "gmial.com": [{ type: "MX", data: { preference: 10, exchange: "mx.gmial.com" } }],
    },
  });
  process.env.SERVICE_DNS_SERVERS = dns.address;
});
afterAll(() => dns.close());

describe("email address syntax", () => {
  it.each([
    ["plain@example.com", true],
    ["first.last+tag@sub.example.co.uk", true],
    ['"john doe"@example.com', true],
    ["josé@example.com", true],
    ["user@bücher.example", true],
    ["no-at-sign.example.com", false],
    ["two..dots@example.com", false],
    [".lead@example.com", false],
    ["user@localhost", false],
    ["user@[192.0.2.1]", false],
    ["user@example.c0m", false],
    ["sp ace@example.com", false],
    [`${"a".repeat(65)}@example.com`, false],
    ["user@-bad.example.com", false],
  ])("%s is valid: %s", (email, valid) => {
    expect(parseAddress(email).valid).toBe(valid);
  });

  it("converts an internationalised domain to punycode", () => {
    const p = parseAddress("user@Bücher.Example");
    expect(p.valid && p.domain).toBe("xn--bcher-kva.example");
  });

  it("normalises Gmail dots, +tags and the googlemail alias to one mailbox", () => {
    expect(canonicalMailbox("J.Doe+promo", "googlemail.com")).toEqual({
      normalized: "jdoe@gmail.com",
      subaddressed: true,
      subaddress: "promo",
      rules: expect.arrayContaining(["googlemail.com is an alias of gmail.com"]),
    });
    expect(canonicalMailbox("J.Doe+promo", "acme.test").normalized).toBe("j.doe+promo@acme.test");
  });

  it.each([
    ["gmial.com", "gmail.com"],
    ["hotmial.com", "hotmail.com"],
    ["yahoo.con", "yahoo.com"],
    ["outlok.com", "outlook.com"],
    ["yahoo.de", null],
    ["gmail.com", null],
    ["acme-industries.com", null],
  ])("suggests a fix for %s: %s", (domain, expected) => {
    expect(suggestDomain(domain)).toBe(expected);
  });
});

describe("checkEmail", () => {
  it("scores an ordinary address at a company domain low and names its sources", async () => {
    const r = await checkEmail("Jane.Doe@Acme.test");
    expect(r.syntax).toEqual({ valid: true, reason: null, localPart: "Jane.Doe", domain: "acme.test" });
    expect(r.normalized).toBe("jane.doe@acme.test");
    expect(r.mx?.status).toBe("present");
    expect(r.mx?.acceptsMail).toBe(true);
    expect(r.mx?.records[0]).toMatchObject({ type: "MX", value: "10 mx.acme.test", ttl: 300 });
    expect(r.score).toBe(0);
    expect(r.riskLevel).toBe("low");
    expect(r.sources.resolver?.answeredBy).toBe(dns.address);
    expect(r.sources.feeds.map((f) => f.name)).toEqual(["disposable-domains", "free-email-domains", "role-accounts"]);
    expect(r.sources.feeds.every((f) => f.count > 100)).toBe(true);
    expect(Date.parse(r.checkedAt)).not.toBeNaN();
  });

  it("flags a disposable provider (and its subdomains) and does not call it a free provider", async () => {
    const r = await checkEmail("someone@mailinator.com");
    expect(r.disposable).toBe(true);
    expect(r.disposableMatch).toBe("mailinator.com");
    expect(r.freeProvider).toBe(false);
    expect(r.reasons.map((x) => x.code)).toContain("disposable");
    expect(r.score).toBeGreaterThanOrEqual(70);
    const sub = await checkEmail("x@inbox.mailinator.com");
    expect(sub.disposableMatch).toBe("mailinator.com");
  });

  it("flags a free provider, a role account and a +tag", async () => {
    const r = await checkEmail("support+signup@gmail.com");
    expect(r.freeProvider).toBe(true);
    expect(r.roleAccount).toBe(true);
    expect(r.roleCategory).not.toBeNull();
    expect(r.subaddress).toBe("signup");
    expect(r.subaddressed).toBe(true);
    expect(r.normalized).toBe("support@gmail.com");
    expect(r.reasons.map((x) => x.code).sort()).toEqual(["free_provider", "role_account", "subaddress"]);
    expect(r.score).toBe(25);
  });

  it("reports an RFC 7505 null MX as not accepting mail", async () => {
    const r = await checkEmail("a@nomail.test");
    expect(r.mx).toMatchObject({ status: "null_mx", nullMx: true, acceptsMail: false });
    expect(r.riskLevel).toBe("critical");
  });

  it("falls back to the domain's address when it has no MX, and reports a domain without either", async () => {
    expect((await checkEmail("a@webonly.test")).mx).toMatchObject({ status: "implicit", acceptsMail: true });
    expect((await checkEmail("a@txtonly.test")).mx).toMatchObject({ status: "absent", acceptsMail: false });
  });

  it("reports a domain that does not exist", async () => {
    const r = await checkEmail("a@does-not-exist.test");
    expect(r.mx?.status).toBe("domain_not_found");
    expect(r.score).toBeGreaterThanOrEqual(90);
  });

  it("suggests the intended address for a typo of a common domain", async () => {
    const r = await checkEmail("bob@gmial.com");
    expect(r.suggestion).toBe("bob@gmail.com");
    expect(r.reasons.map((x) => x.code)).toContain("possible_typo");
  });

  it("answers an invalid address with the reason and a score of 100, without a DNS query", async () => {
    const before = dns.queries.length;
    const r = await checkEmail("not an email");
    expect(r.syntax.valid).toBe(false);
    expect(r.syntax.reason).toMatch(/@/);
    expect(r.score).toBe(100);
    expect(r.mx).toBeNull();
    expect(dns.queries.length).toBe(before);
  });

  it("keeps the rest of the answer when the resolver is down, with MX marked unavailable", async () => {
    process.env.SERVICE_DNS_TIMEOUT_MS = "150";
    dns.down = true;
    try {
      const r = await checkEmail("x@mailinator.com");
      expect(r.disposable).toBe(true);
      expect(r.mx).toMatchObject({ status: "unavailable", acceptsMail: null });
      expect(r.sources.resolver?.answeredBy).toBeNull();
    } finally {
      dns.down = false;
      delete process.env.SERVICE_DNS_TIMEOUT_MS;
    }
  });
});
