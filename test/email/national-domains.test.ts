// Outlook.com's and Yahoo Mail's national domains: the same service as their .com, so the same tag rule ("+tag" at
// Outlook.com, Hotmail and Live; Yahoo's "-keyword" disposable addresses), each domain still its own mailboxes. The
// migration gives the events stored before the rule the canonical mailbox they would get now. Both stores.
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalEmail } from "../../server/email/canonical";
import { createTestApp, type TestApp } from "../harness";
import { runMigrationFile } from "../migration-file";
import { expectCanonicalMailboxes, recordStoredMailboxes } from "./stored-mailboxes";

describe("canonical mailboxes at national domains", () => {
  it.each([
    ["bob+news@outlook.co.uk", "bob@outlook.co.uk"],
    ["Bob.Smith+x@Outlook.com.au", "bob.smith@outlook.com.au"],
    ["bob+x@outlook.ie", "bob@outlook.ie"],
    ["bob+x@outlook.jp", "bob@outlook.jp"],
  ])("Outlook: %s -> %s", (input, normalized) => {
    expect(canonicalEmail(input)).toEqual({ normalized, subaddressed: true });
  });

  it.each([
    ["bob+x@hotmail.com.au", "bob@hotmail.com.au"],
    ["bob+x@hotmail.ca", "bob@hotmail.ca"],
    ["bob+x@hotmail.be", "bob@hotmail.be"],
    ["bob+x@hotmail.com.br", "bob@hotmail.com.br"],
  ])("Hotmail: %s -> %s", (input, normalized) => {
    expect(canonicalEmail(input)).toEqual({ normalized, subaddressed: true });
  });

  it.each([
    ["bob+x@live.com.mx", "bob@live.com.mx"],
    ["bob+x@live.be", "bob@live.be"],
    ["bob+x@live.es", "bob@live.es"],
  ])("Live: %s -> %s", (input, normalized) => {
    expect(canonicalEmail(input)).toEqual({ normalized, subaddressed: true });
  });

  it.each([
    ["base-shop@yahoo.co.uk", "base@yahoo.co.uk", true],
    ["Base-Shop@Yahoo.fr", "base@yahoo.fr", true],
    ["base-news@yahoo.de", "base@yahoo.de", true],
    ["base-x@yahoo.com.au", "base@yahoo.com.au", true],
    // "+" is not Yahoo's separator there either; a leading "-" is no keyword of an empty base name.
    ["base+shop@yahoo.co.uk", "base+shop@yahoo.co.uk", false],
    ["-x@yahoo.fr", "-x@yahoo.fr", false],
    // Yahoo! JAPAN is another company's service: its addresses keep their "-".
    ["base-shop@yahoo.co.jp", "base-shop@yahoo.co.jp", false],
  ])("Yahoo: %s -> %s (subaddressed %s)", (input, normalized, subaddressed) => {
    expect(canonicalEmail(input)).toEqual({ normalized, subaddressed });
  });

  it("keeps each national domain its own mailboxes", () => {
    expect(canonicalEmail("bob+x@outlook.co.uk").normalized).not.toBe(canonicalEmail("bob@outlook.com").normalized);
    expect(canonicalEmail("base-x@yahoo.fr").normalized).not.toBe(canonicalEmail("base@yahoo.com").normalized);
  });
});

describe("the migration of stored events", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });

  it("gives events stored before the rule the canonical mailbox and account they would get now", async () => {
    const ws = await app.seedWorkspace();
    const addresses = [
      "bob+news@outlook.co.uk",
      "bob+x@hotmail.com.au",
      "bob+x@live.com.mx",
      "base-shop@yahoo.co.uk",
      "base-x@yahoo.fr",
      "base+shop@yahoo.co.uk",
      "base-shop@yahoo.co.jp",
      "bob-smith@outlook.co.uk",
      "bob+x@example.com",
      '"bob+x"@outlook.co.uk',
    ];
    // As an earlier release stored them: the canonical mailbox was the lower-cased address.
    await recordStoredMailboxes(app, ws.workspaceId, addresses, (email) => email, "req_nat");
    await runMigrationFile(app.db, "20261129062000_email_normalized_national_outlook_yahoo");
    await expectCanonicalMailboxes(app, ws.workspaceId, addresses);
    const base = await app.db.event.findFirstOrThrow({
      where: { workspaceId: ws.workspaceId, email: "base-shop@yahoo.co.uk" },
    });
    expect(base.emailNormalized).toBe("base@yahoo.co.uk");
  });
});
