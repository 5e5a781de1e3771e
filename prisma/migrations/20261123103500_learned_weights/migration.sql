-- CreateTable
CREATE TABLE "WorkspaceWeights" (
    "workspaceId" TEXT NOT NULL,
    "mode" TEXT NOT NULL DEFAULT 'default',
    "weights" JSONB,
    "labels" JSONB,
    "fittedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WorkspaceWeights_pkey" PRIMARY KEY ("workspaceId")
);
