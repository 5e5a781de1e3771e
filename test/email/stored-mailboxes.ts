// Events stored by an earlier release under an earlier canonical mailbox, and what a migration of them must give: the
// canonical mailbox and email-keyed account (subject) they would get now. For the tests of the email migrations.
import { expect } from "vitest";
import { canonicalEmail } from "../../server/email/canonical";
import { recordEvent } from "../../server/events/events";
import type { TestApp } from "../harness";

/** One assessment event per address, its mailbox and account as `before` gives them; request ids `${prefix}<i>`. */
export async function recordStoredMailboxes(
  app: TestApp,
  workspaceId: string,
  addresses: string[],
  before: (email: string) => string,
  prefix: string,
): Promise<void> {
  for (const [i, email] of addresses.entries())
    await recordEvent(app.db, {
      workspaceId,
      requestId: `${prefix}${i}`,
      type: "assessment",
      email,
      emailNormalized: before(email),
      subject: `email:${before(email)}`,
      data: {},
    });
}

/** Every event of the workspace (recorded in `addresses`' order) holds today's canonical mailbox and account. */
export async function expectCanonicalMailboxes(app: TestApp, workspaceId: string, addresses: string[]): Promise<void> {
  const rows = await app.db.event.findMany({ where: { workspaceId }, orderBy: { requestId: "asc" } });
  expect(rows.map((r) => [r.email, r.emailNormalized, r.subject])).toEqual(
    addresses.map((email) => {
      const normalized = canonicalEmail(email).normalized;
      return [email, normalized, `email:${normalized}`];
    }),
  );
}
