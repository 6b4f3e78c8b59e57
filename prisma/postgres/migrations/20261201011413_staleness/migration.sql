-- Staleness: the project's code repository, per-row freshness on the read model, the check
-- cache per (memory blob, code commit), the last run per project and the "still true" records.
ALTER TABLE "Project" ADD COLUMN "codeRepo" TEXT;

ALTER TABLE "StoreMemory" ADD COLUMN "freshState" TEXT;
ALTER TABLE "StoreMemory" ADD COLUMN "freshScore" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "StoreMemory" ADD COLUMN "freshReasons" TEXT NOT NULL DEFAULT '';
ALTER TABLE "StoreMemory" ADD COLUMN "freshSignals" TEXT NOT NULL DEFAULT '{}';
CREATE INDEX "StoreMemory_projectId_freshScore_idx" ON "StoreMemory"("projectId", "freshScore");

CREATE TABLE "StaleCheck" (
    "blob" TEXT NOT NULL,
    "codeCommit" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "checkedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "StaleCheck_pkey" PRIMARY KEY ("blob","codeCommit")
);

CREATE TABLE "StaleRun" (
    "projectId" TEXT NOT NULL,
    "codeCommit" TEXT,
    "codeRepoProblem" TEXT,
    "storeCommit" TEXT,
    "checkedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StaleRun_pkey" PRIMARY KEY ("projectId")
);

CREATE TABLE "MemoryVerification" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "userName" TEXT NOT NULL,
    "commit" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MemoryVerification_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "MemoryVerification_projectId_path_at_idx" ON "MemoryVerification"("projectId", "path", "at");
