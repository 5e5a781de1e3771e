-- DropIndex
DROP INDEX "Event_workspaceId_email_createdAt_idx";

-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "emailNormalized" TEXT;

-- Backfill: the canonical mailbox of every stored address, by the rules of server/email/canonical.ts (stored
-- addresses are already lower case): Gmail and Googlemail drop the +tag and dots and read as gmail.com; the other
-- providers of the table drop their +tag (Yahoo its -keyword); a quoted local part and every other domain stay as
-- they are. Accounts keyed by their address ("email:<address>") move to the canonical mailbox too, so per-user
-- baselines continue across the change.
UPDATE "Event" e SET "emailNormalized" = CASE
    WHEN a."local" LIKE '"%' THEN e."email"
    WHEN a."domain" IN ('gmail.com', 'googlemail.com') THEN
      replace(CASE WHEN strpos(a."local", '+') > 1 THEN left(a."local", strpos(a."local", '+') - 1) ELSE a."local" END, '.', '')
      || '@gmail.com'
    WHEN a."domain" IN ('outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'mac.com',
        'fastmail.com', 'fastmail.fm', 'proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me')
      AND strpos(a."local", '+') > 1 THEN left(a."local", strpos(a."local", '+') - 1) || '@' || a."domain"
    WHEN a."domain" = 'yahoo.com' AND strpos(a."local", '-') > 1 THEN left(a."local", strpos(a."local", '-') - 1) || '@yahoo.com'
    ELSE e."email"
  END
  FROM (SELECT "id", substring("email" from '^(.*)@[^@]*$') AS "local", substring("email" from '@([^@]*)$') AS "domain"
          FROM "Event" WHERE "email" IS NOT NULL) a
  WHERE a."id" = e."id" AND a."local" IS NOT NULL;

UPDATE "Event" SET "subject" = 'email:' || "emailNormalized"
  WHERE "subject" LIKE 'email:%' AND "emailNormalized" IS NOT NULL AND "subject" <> 'email:' || "emailNormalized";

-- CreateIndex
CREATE INDEX "Event_workspaceId_emailNormalized_createdAt_idx" ON "Event"("workspaceId", "emailNormalized", "createdAt");
