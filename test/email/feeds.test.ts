import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  disposableDomainsFeed,
  freeEmailDomainsFeed,
  parseDomainList,
  roleAccountsFeed,
} from "../../server/email/feeds";

describe("email feeds", () => {
  it("reads the upstream formats: a plain list with comments and a JSON array", () => {
    expect([...parseDomainList(Buffer.from("# comment\nMailinator.com\n\n10minutemail.com\n")).data]).toEqual([
      "mailinator.com",
      "10minutemail.com",
    ]);
    expect(parseDomainList(Buffer.from('["gmail.com", "yahoo.com"]')).count).toBe(2);
  });

  it("refuses malformed or empty downloads, so a failed refresh keeps the previous data", () => {
    expect(() => parseDomainList(Buffer.from("<html><body>Not found</body></html>"))).toThrow(/not a domain name/);
    expect(() => parseDomainList(Buffer.from("# only comments\n"))).toThrow(/empty/);
    expect(() => roleAccountsFeed.parse(Buffer.from("admin\n"))).toThrow(/malformed/);
  });

  it("parses the shipped snapshots with their recorded date", () => {
    for (const def of [disposableDomainsFeed, freeEmailDomainsFeed]) {
      const parsed = def.parse(readFileSync(def.snapshotPath));
      expect(parsed.count).toBeGreaterThan(5000);
      expect(parsed.version).toMatch(/^2026-/);
    }
    const roles = roleAccountsFeed.parse(readFileSync(roleAccountsFeed.snapshotPath));
    expect(roles.data.get("postmaster")).toBeTruthy();
    expect(roles.data.get("abuse")).toBeTruthy();
  });
});
