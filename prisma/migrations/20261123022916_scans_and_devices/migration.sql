-- CreateTable
CREATE TABLE "Scan" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "visibility" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "score" INTEGER,
    "grade" TEXT,
    "result" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Scan_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DeviceObservation" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "deviceId" TEXT NOT NULL,
    "ip" TEXT,
    "email" TEXT,
    "userId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DeviceObservation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Scan_workspaceId_host_createdAt_idx" ON "Scan"("workspaceId", "host", "createdAt");

-- CreateIndex
CREATE INDEX "Scan_host_visibility_createdAt_idx" ON "Scan"("host", "visibility", "createdAt");

-- CreateIndex
CREATE INDEX "Scan_visibility_createdAt_idx" ON "Scan"("visibility", "createdAt");

-- CreateIndex
CREATE INDEX "DeviceObservation_workspaceId_deviceId_createdAt_idx" ON "DeviceObservation"("workspaceId", "deviceId", "createdAt");
