-- CreateTable
CREATE TABLE "RecallEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "queryHash" TEXT NOT NULL,
    "selector" TEXT NOT NULL,
    "selected" TEXT NOT NULL,
    "latencyMs" INTEGER NOT NULL,
    "fellBack" BOOLEAN NOT NULL DEFAULT false
);

-- CreateIndex
CREATE INDEX "RecallEvent_projectId_at_idx" ON "RecallEvent"("projectId", "at");

