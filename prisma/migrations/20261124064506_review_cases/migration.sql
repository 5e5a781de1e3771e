-- CreateTable
CREATE TABLE "ReviewCase" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "rule" TEXT,
    "subject" TEXT,
    "ip" TEXT,
    "deviceId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'open',
    "assignee" TEXT,
    "resolution" TEXT,
    "note" TEXT,
    "resolvedBy" TEXT,
    "resolvedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewCase_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ReviewCase_workspaceId_status_createdAt_idx" ON "ReviewCase"("workspaceId", "status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewCase_workspaceId_requestId_key" ON "ReviewCase"("workspaceId", "requestId");
