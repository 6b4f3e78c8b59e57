-- The read model's per-file history. Rows are derived from git, and an existing read model is
-- rebuilt on its next sync (the recorded commit is cleared) so the history is filled in.
CREATE TABLE "StoreMemoryChange" (
    "projectId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "commit" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "authorName" TEXT NOT NULL,
    "authorEmail" TEXT NOT NULL,
    "subject" TEXT NOT NULL,

    CONSTRAINT "StoreMemoryChange_pkey" PRIMARY KEY ("projectId","path","commit")
);

CREATE INDEX "StoreMemoryChange_projectId_path_at_idx" ON "StoreMemoryChange"("projectId", "path", "at");

DELETE FROM "SystemState" WHERE "key" = 'read-model-commit';
