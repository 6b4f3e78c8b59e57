-- CreateTable
CREATE TABLE "RecallEvent" (
    "id" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "queryHash" TEXT NOT NULL,
    "selector" TEXT NOT NULL,
    "selected" TEXT NOT NULL,
    "latencyMs" INTEGER NOT NULL,
    "fellBack" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "RecallEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RecallEvent_projectId_at_idx" ON "RecallEvent"("projectId", "at");

