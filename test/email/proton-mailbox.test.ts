// Proton Mail treats ".", "_" and "-" in a username as transparent (user.name, user_name and username are one
// mailbox, and no other account can take a variation): the canonical mailbox drops them at Proton's domains, as it
// drops Gmail's dots. The migration gives the events stored before the rule the canonical mailbox and account they
// would get now. Both stores.
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalEmail } from "../../server/email/canonical";
import { createTestApp, type TestApp } from "../harness";
import { runMigrationFile } from "../migration-file";
import { expectCanonicalMailboxes, recordStoredMailboxes } from "./stored-mailboxes";

const MIGRATION = "20261129120000_email_normalized_proton_transparent";

describe("the migration of events stored at Proton's domains", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });

  it("gives events stored before the rule the canonical mailbox and account they would get now", async () => {
    const ws = await app.seedWorkspace();
    const addresses = [
      "bob.smith@proton.me",
      "bob_smith+news@protonmail.com",
      "b-o.b@protonmail.ch",
      "bob.smith+x@pm.me",
      "bobsmith@proton.me",
      "+x.y@proton.me",
      "bob.smith@gmail.com",
      "bob.smith@example.com",
      '"bob.smith"@proton.me',
    ];
    // As the previous release stored them: Proton's "+tag" removed, the rest of the address as sent (lower case).
    const before = (email: string) =>
      email.startsWith('"') || !/@(proton\.me|protonmail\.com|protonmail\.ch|pm\.me)$/.test(email)
        ? canonicalEmail(email).normalized
        : email.replace(/^([^+@]+)\+[^@]*@/, "$1@");
    await recordStoredMailboxes(app, ws.workspaceId, addresses, before, "req_prot");
    await runMigrationFile(app.db, MIGRATION);
    await expectCanonicalMailboxes(app, ws.workspaceId, addresses);
    const bob = await app.db.event.findFirstOrThrow({
      where: { workspaceId: ws.workspaceId, email: "b-o.b@protonmail.ch" },
    });
    expect(bob.emailNormalized).toBe("bob@protonmail.ch");
  });
});
