import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  CANONICAL_PROVIDER_DOMAINS,
  canonicalEmail,
  MICROSOFT_NATIONAL,
  YAHOO_NATIONAL,
} from "../../server/email/canonical";

describe("canonicalEmail", () => {
  it("gives one Gmail mailbox spelled five ways one canonical address", () => {
    const spellings = [
      "alice@gmail.com",
      "a.l.i.c.e+1@gmail.com",
      "alice+2@googlemail.com",
      "ALICE@gmail.com",
      " A.lice+farm@GoogleMail.com ",
    ];
    expect(new Set(spellings.map((s) => canonicalEmail(s).normalized))).toEqual(new Set(["alice@gmail.com"]));
    expect(spellings.map((s) => canonicalEmail(s).subaddressed)).toEqual([false, true, true, false, true]);
  });

  it.each([
    // Providers that document "+" subaddressing: the tag goes, dots stay (only Gmail and Proton ignore them).
    ["Bob.Smith+news@Outlook.com", "bob.smith@outlook.com", true],
    ["bob+x@hotmail.com", "bob@hotmail.com", true],
    ["bob+x@live.com", "bob@live.com", true],
    ["bob+x@msn.com", "bob@msn.com", true],
    // Outlook.com's national consumer domains: the same rule, each its own domain.
    ["bob+x@hotmail.co.uk", "bob@hotmail.co.uk", true],
    ["bob+x@hotmail.fr", "bob@hotmail.fr", true],
    ["bob+x@outlook.de", "bob@outlook.de", true],
    ["bob+x@live.co.uk", "bob@live.co.uk", true],
    ["b.ob+x@icloud.com", "b.ob@icloud.com", true],
    ["bob+x@me.com", "bob@me.com", true],
    ["bob+x@mac.com", "bob@mac.com", true],
    ["bob+x@fastmail.com", "bob@fastmail.com", true],
    ["bob+x@proton.me", "bob@proton.me", true],
    ["bob+x@protonmail.com", "bob@protonmail.com", true],
    ["bob+x@pm.me", "bob@pm.me", true],
    // Proton treats ".", "_" and "-" in a username as transparent (user.name is user_name is username): one mailbox.
    ["Bob.Smith@proton.me", "bobsmith@proton.me", false],
    ["bob_smith+x@protonmail.com", "bobsmith@protonmail.com", true],
    ["b-o.b_smith@protonmail.ch", "bobsmith@protonmail.ch", false],
    ["bob.smith+x@pm.me", "bobsmith@pm.me", true],
    // Yahoo's disposable addresses: basename-keyword; a "+" is not Yahoo's separator.
    ["base-shop@yahoo.com", "base@yahoo.com", true],
    ["base+shop@yahoo.com", "base+shop@yahoo.com", false],
    // Unknown domains keep everything but case: a "+" there may be part of a real, different mailbox.
    ["Bob.Smith+news@Example.com", "bob.smith+news@example.com", false],
    ["bob-smith@example.com", "bob-smith@example.com", false],
    // Dots and "-" at Gmail are not tags; a leading separator is no tag of an empty mailbox.
    ["bob-smith@gmail.com", "bob-smith@gmail.com", false],
    ["+x@gmail.com", "+x@gmail.com", false],
    ["-x@yahoo.com", "-x@yahoo.com", false],
    // A quoted local part is opaque.
    ['"b.o+b"@gmail.com', '"b.o+b"@gmail.com', false],
  ])("%s -> %s (subaddressed %s)", (input, normalized, subaddressed) => {
    expect(canonicalEmail(input)).toEqual({ normalized, subaddressed });
  });

  it("leaves a value that is not an address trimmed and lower-cased", () => {
    expect(canonicalEmail("  Not An Address ")).toEqual({ normalized: "not an address", subaddressed: false });
  });

  it("has a rule for every provider the issue names", () => {
    for (const d of ["gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "icloud.com", "fastmail.com"])
      expect(CANONICAL_PROVIDER_DOMAINS).toContain(d);
    for (const d of ["proton.me", "protonmail.com", "pm.me", "yahoo.com", "live.com", "msn.com", "me.com", "mac.com"])
      expect(CANONICAL_PROVIDER_DOMAINS).toContain(d);
  });

  it("backfills the stored events of exactly the national domains the table has, once each", () => {
    const domainsOf = (name: string) =>
      [...readFileSync(`prisma/migrations/${name}/migration.sql`, "utf8").matchAll(/'([a-z.]+\.[a-z]+)'/g)].map(
        (m) => m[1],
      );
    const backfilled = [
      ...domainsOf("20261128070500_email_normalized_microsoft_national"),
      ...domainsOf("20261129062000_email_normalized_national_outlook_yahoo"),
    ];
    expect(backfilled.length).toBe(new Set(backfilled).size);
    expect(new Set(backfilled)).toEqual(new Set([...MICROSOFT_NATIONAL, ...YAHOO_NATIONAL]));
    for (const d of backfilled) expect(CANONICAL_PROVIDER_DOMAINS).toContain(d);
  });
});
