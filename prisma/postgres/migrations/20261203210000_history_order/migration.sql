-- A file's commits in the same second showed in commit-id order on its page: the read model now records the order it saw them in.
ALTER TABLE "StoreMemoryChange" ADD COLUMN "seq" DOUBLE PRECISION NOT NULL DEFAULT 0;
CREATE INDEX "StoreMemoryChange_seq_idx" ON "StoreMemoryChange"("seq");
