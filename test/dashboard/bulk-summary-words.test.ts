// A bulk job's results say each item's summary in words (a helper's walk): the summary's fields are the API's (the
// CSV's columns), and an email target read "mx: domain_not_found", an IP "asn: 15169". The dashboard says them as the
// lookup's own answer card does. The summaries here are made by the server's own summary of each kind.
import { describe, expect, it } from "vitest";
import { summaryText } from "../../app/dashboard/bulk/bulk-text";
import { KINDS } from "../../server/bulk/kinds";

describe("a bulk item's summary in words", () => {
  it("says an email check's mail servers as the email card does, never by their code", () => {
    for (const [status, words] of [
      ["domain_not_found", "mail servers: the domain does not exist"],
      ["null_mx", "mail servers: the domain refuses all mail (null MX)"],
      ["present", "mail servers: mail servers found"],
    ] as const) {
      const summary = KINDS.email.summary({
        disposable: false,
        freeProvider: true,
        mx: { status },
        score: 90,
        riskLevel: "critical",
      });
      const text = summaryText(summary, "email");
      expect(text).toContain(words);
      expect(text).not.toContain("_");
      expect(text).not.toMatch(/\bmx\b/);
    }
  });

  it("names an IP's AS number and a DNS answer's status in words", () => {
    const ip = summaryText(KINDS.ip.summary({ asn: { number: 15169, organization: "Google LLC" } }), "ip");
    expect(ip).toBe("AS number: 15169 · organization: Google LLC");
    const dns = summaryText(KINDS.dns.summary({ status: "NXDOMAIN", records: [] }), "dns");
    expect(dns).toBe("status: Name does not exist");
  });
});
