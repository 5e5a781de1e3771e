// Proton Mail treats ".", "_" and "-" in a username as transparent (user.name, user_name and username are one
// mailbox, and no other account can take a variation): the canonical mailbox drops them at Proton's domains, as it
// drops Gmail's dots. The migration gives the events stored before the rule the canonical mailbox and account they
// would get now. Both stores.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalEmail } from "../../server/email/canonical";
import { recordEvent } from "../../server/events/events";
import { createTestApp, type TestApp } from "../harness";

const MIGRATION = "prisma/migrations/20261129120000_email_normalized_proton_transparent/migration.sql";

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
    for (const [i, email] of addresses.entries())
      await recordEvent(app.db, {
        workspaceId: ws.workspaceId,
        requestId: `req_prot${i}`,
        type: "assessment",
        email,
        emailNormalized: before(email),
        subject: `email:${before(email)}`,
        data: {},
      });
    const sql = readFileSync(MIGRATION, "utf8");
    // Statement by statement (a prepared statement holds one); the runner sends the file as one script.
    for (const statement of sql.split(/;\s*(?:\n|$)/).filter((t) => t.replace(/--.*$/gm, "").trim()))
      await app.db.$executeRawUnsafe(statement);

    const rows = await app.db.event.findMany({ where: { workspaceId: ws.workspaceId }, orderBy: { requestId: "asc" } });
    expect(rows.map((r) => [r.email, r.emailNormalized, r.subject])).toEqual(
      addresses.map((email) => {
        const normalized = canonicalEmail(email).normalized;
        return [email, normalized, `email:${normalized}`];
      }),
    );
    expect(rows.find((r) => r.email === "b-o.b@protonmail.ch")?.emailNormalized).toBe("bob@protonmail.ch");
  });
});
