-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "subject" TEXT;

-- CreateIndex
CREATE INDEX "Event_workspaceId_subject_createdAt_idx" ON "Event"("workspaceId", "subject", "createdAt");
