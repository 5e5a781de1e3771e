-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "phone" TEXT;

-- CreateIndex
-- Only assessments that gave a readable phone number are indexed (most events have none). Written by hand: the
-- schema cannot state a partial index without a preview feature; prisma/schema.prisma says so beside the column.
CREATE INDEX "Event_workspaceId_phone_createdAt_idx" ON "Event"("workspaceId", "phone", "createdAt") WHERE "phone" IS NOT NULL;
