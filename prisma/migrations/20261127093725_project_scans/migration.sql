-- CreateTable
CREATE TABLE "ProjectScan" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "project" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "baseScanId" TEXT,
    "format" TEXT NOT NULL,
    "path" TEXT,
    "packages" JSONB NOT NULL,
    "report" JSONB NOT NULL,
    "summary" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProjectScan_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ProjectScan_workspaceId_project_ref_createdAt_idx" ON "ProjectScan"("workspaceId", "project", "ref", "createdAt");

-- CreateIndex
CREATE INDEX "ProjectScan_workspaceId_project_createdAt_idx" ON "ProjectScan"("workspaceId", "project", "createdAt");

-- CreateIndex
CREATE INDEX "ProjectScan_expiresAt_idx" ON "ProjectScan"("expiresAt");
