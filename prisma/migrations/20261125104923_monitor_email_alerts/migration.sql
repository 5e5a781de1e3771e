-- AlterTable
ALTER TABLE "Monitor" ADD COLUMN     "emailAlerts" JSONB,
ADD COLUMN     "emailUnsubscribed" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "MonitorEmail" (
    "id" TEXT NOT NULL,
    "monitorId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "alertId" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT NOT NULL,
    "unsubscribeUrl" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL,
    "lastError" TEXT,
    "sentAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MonitorEmail_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "MonitorEmail_status_nextAttemptAt_idx" ON "MonitorEmail"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "MonitorEmail_monitorId_idx" ON "MonitorEmail"("monitorId");

-- CreateIndex
CREATE UNIQUE INDEX "MonitorEmail_alertId_recipient_key" ON "MonitorEmail"("alertId", "recipient");
