-- AlterTable
ALTER TABLE "Link" ADD COLUMN     "safety" JSONB;

-- CreateIndex
CREATE INDEX "Link_workspaceId_createdAt_idx" ON "Link"("workspaceId", "createdAt");
