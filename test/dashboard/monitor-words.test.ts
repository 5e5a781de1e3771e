// A monitor alert that says a check keeps failing (issue 42, item 11) reads in words on the monitor's timeline and
// the Events page, never as its raw fields.
import { describe, expect, it } from "vitest";
import { stateWords } from "../../server/monitors/state-words";

describe("stateWords for a check that cannot run", () => {
  it("says how many runs failed, since when and why, for any check type", () => {
    const failing = {
      check_failing: true,
      reason: "DNS server did not answer",
      code: "dns_timeout",
      since: "2026-11-27T06:00:00.000Z",
      failed_runs: 3,
    };
    for (const check of ["dns", "tls", "reachability"])
      expect(stateWords(check, failing)).toBe(
        "could not run 3 times in a row since 2026-11-27 06:00 UTC: DNS server did not answer",
      );
  });

  it("says the check runs again when it is resolved", () => {
    expect(stateWords("dns", { check_failing: false })).toBe("runs again");
  });

  it("leaves a check's own state as before", () => {
    expect(stateWords("reachability", { online: false })).toBe("offline");
  });
});

describe("stateWords for the DNS check says statuses in words", () => {
  it("says a name that does not exist once, in words with its code", () => {
    expect(stateWords("dns", { A: { status: "NXDOMAIN", records: [] }, MX: { status: "NXDOMAIN", records: [] } })).toBe(
      "this name does not exist (NXDOMAIN)",
    );
  });

  it("lists records found, says a type without records as none, and a failure in words", () => {
    expect(
      stateWords("dns", {
        A: { status: "NOERROR", records: ["192.0.2.1"] },
        MX: { status: "NODATA", records: [] },
        TXT: { status: "SERVFAIL", records: [] },
      }),
    ).toBe("A 192.0.2.1; MX none; TXT: the name's DNS servers gave no usable answer (SERVFAIL)");
  });
});

describe("stateWords for the email security check", () => {
  it("says the overall verdict first and each check by its name in words, never the stored keys", () => {
    const words = stateWords("email_security", {
      overall: "warn",
      tlsRpt: "warn",
      dmarc: "pass",
      spf: "pass",
      mtaSts: "fail",
      dkim: "unknown",
      dmarc_policy: "reject",
      dkim_selectors: ["google", "s1"],
    });
    expect(words).toBe(
      "Needs attention: SPF in place, DKIM could not be checked, DMARC in place, MTA-STS (enforced TLS) problem, " +
        "TLS reporting needs attention; DMARC policy reject; DKIM keys at google, s1",
    );
    expect(words).not.toMatch(/MTASTS|TLSRPT|OVERALL|\bwarn\b/);
  });

  it("says a missing DMARC policy and DKIM key, and names a check it does not know in words", () => {
    expect(stateWords("email_security", { overall: "fail", spf: "fail", new_check: "pass", dkim_selectors: [] })).toBe(
      "Problem found: SPF problem, new check in place; no DMARC policy; no DKIM key found",
    );
  });
});
