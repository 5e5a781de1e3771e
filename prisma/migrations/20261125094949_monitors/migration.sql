-- CreateTable
CREATE TABLE "Monitor" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT,
    "target" TEXT NOT NULL,
    "checks" JSONB NOT NULL,
    "interval" TEXT NOT NULL,
    "thresholds" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "nextRunAt" TIMESTAMP(3) NOT NULL,
    "lastRunAt" TIMESTAMP(3),
    "lastStates" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Monitor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MonitorRun" (
    "id" TEXT NOT NULL,
    "monitorId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "units" INTEGER NOT NULL DEFAULT 0,
    "results" JSONB,
    "reason" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "MonitorRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MonitorAlert" (
    "id" TEXT NOT NULL,
    "monitorId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "check" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "reminder" BOOLEAN NOT NULL DEFAULT false,
    "open" BOOLEAN NOT NULL DEFAULT false,
    "runId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "lastNotifiedAt" TIMESTAMP(3),

    CONSTRAINT "MonitorAlert_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Monitor_workspaceId_createdAt_idx" ON "Monitor"("workspaceId", "createdAt");

-- CreateIndex
CREATE INDEX "Monitor_status_nextRunAt_idx" ON "Monitor"("status", "nextRunAt");

-- CreateIndex
CREATE INDEX "MonitorRun_monitorId_startedAt_idx" ON "MonitorRun"("monitorId", "startedAt");

-- CreateIndex
CREATE INDEX "MonitorAlert_monitorId_createdAt_idx" ON "MonitorAlert"("monitorId", "createdAt");

-- CreateIndex
CREATE INDEX "MonitorAlert_monitorId_check_open_idx" ON "MonitorAlert"("monitorId", "check", "open");
