-- CreateTable
CREATE TABLE "NamedList" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "description" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NamedList_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NamedListItem" (
    "id" TEXT NOT NULL,
    "listId" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "note" TEXT,
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "NamedListItem_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "NamedList_workspaceId_name_key" ON "NamedList"("workspaceId", "name");

-- CreateIndex
CREATE INDEX "NamedListItem_expiresAt_idx" ON "NamedListItem"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "NamedListItem_listId_value_key" ON "NamedListItem"("listId", "value");
