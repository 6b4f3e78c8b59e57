-- The read model: one row per memory file of each project at a known store commit.
CREATE TABLE "StoreMemory" (
    "projectId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "blob" TEXT NOT NULL,
    "type" TEXT,
    "name" TEXT,
    "description" TEXT,
    "bodyBytes" INTEGER NOT NULL,
    "changedAt" TIMESTAMP(3) NOT NULL,
    "changedBy" TEXT NOT NULL,
    "changedCommit" TEXT NOT NULL,
    "findings" TEXT NOT NULL DEFAULT '[]',
    "findingRules" TEXT NOT NULL DEFAULT '',
    "findingCount" INTEGER NOT NULL DEFAULT 0,
    "hasErrors" BOOLEAN NOT NULL DEFAULT false,
    "hasSecret" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "StoreMemory_pkey" PRIMARY KEY ("projectId","path")
);

CREATE INDEX "StoreMemory_projectId_changedAt_idx" ON "StoreMemory"("projectId", "changedAt");
CREATE INDEX "StoreMemory_projectId_type_changedAt_idx" ON "StoreMemory"("projectId", "type", "changedAt");
