-- CreateTable
CREATE TABLE "RequestOutcomeDaily" (
    "workspaceId" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "procedure" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "code" TEXT NOT NULL DEFAULT '',
    "count" INTEGER NOT NULL,

    CONSTRAINT "RequestOutcomeDaily_pkey" PRIMARY KEY ("workspaceId","day","procedure","apiKeyId","status","code")
);

-- CreateIndex
CREATE INDEX "RequestOutcomeDaily_day_idx" ON "RequestOutcomeDaily"("day");
