-- CreateTable
CREATE TABLE "BulkJob" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "requestId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdByUserId" TEXT,
    "createdByKeyId" TEXT,
    "createdBy" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "unitsReserved" INTEGER NOT NULL,
    "unitsRefunded" INTEGER NOT NULL DEFAULT 0,
    "periodStart" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "cancelledAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BulkJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BulkItem" (
    "id" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "target" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "units" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "claimToken" TEXT,
    "claimedUntil" TIMESTAMP(3),
    "summary" JSONB,
    "result" JSONB,
    "errorCode" TEXT,
    "errorMessage" TEXT,
    "refunded" BOOLEAN NOT NULL DEFAULT false,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "BulkItem_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "BulkJob_workspaceId_createdAt_idx" ON "BulkJob"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "BulkJob_status_idx" ON "BulkJob"("status");

-- CreateIndex
CREATE INDEX "BulkJob_expiresAt_idx" ON "BulkJob"("expiresAt");

-- CreateIndex
CREATE INDEX "BulkItem_status_claimedUntil_idx" ON "BulkItem"("status", "claimedUntil");

-- CreateIndex
CREATE UNIQUE INDEX "BulkItem_jobId_position_key" ON "BulkItem"("jobId", "position");

-- AddForeignKey
ALTER TABLE "BulkItem" ADD CONSTRAINT "BulkItem_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "BulkJob"("id") ON DELETE CASCADE ON UPDATE CASCADE;
