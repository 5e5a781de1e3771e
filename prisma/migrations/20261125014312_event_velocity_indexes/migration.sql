-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "device" TEXT;

-- Backfill: the assessments of the longest window velocity and the account baseline read (90 days) get their
-- device, and those stored before the subject column their account, so counts and baselines carry over.
UPDATE "Event" SET "device" = "data"->>'device_id'
 WHERE "type" = 'assessment' AND "data" ? 'device_id' AND "createdAt" >= now() - interval '90 days';
UPDATE "Event" SET "subject" = CASE WHEN "data" ? 'user_id' THEN 'user:' || ("data"->>'user_id') ELSE 'email:' || "email" END
 WHERE "type" = 'assessment' AND "subject" IS NULL AND ("data" ? 'user_id' OR "email" IS NOT NULL)
   AND "createdAt" >= now() - interval '90 days';

-- CreateIndex
CREATE INDEX "Event_workspaceId_ip_createdAt_idx" ON "Event"("workspaceId", "ip", "createdAt");

-- CreateIndex
CREATE INDEX "Event_workspaceId_email_createdAt_idx" ON "Event"("workspaceId", "email", "createdAt");

-- CreateIndex
CREATE INDEX "Event_workspaceId_device_createdAt_idx" ON "Event"("workspaceId", "device", "createdAt");
