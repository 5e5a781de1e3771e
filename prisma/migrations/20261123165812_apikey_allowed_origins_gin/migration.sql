-- CreateIndex
CREATE INDEX "ApiKey_allowedOrigins_idx" ON "ApiKey" USING GIN ("allowedOrigins");
