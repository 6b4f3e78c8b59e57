-- CreateTable
CREATE TABLE "Proposal" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "proposerId" TEXT NOT NULL,
    "provenance" TEXT NOT NULL DEFAULT '{}',
    "state" TEXT NOT NULL DEFAULT 'submitted',
    "revision" INTEGER NOT NULL DEFAULT 1,
    "baseBlob" TEXT,
    "teamConventionConfirmed" BOOLEAN NOT NULL DEFAULT false,
    "checks" TEXT NOT NULL DEFAULT '{}',
    "approvedRevision" INTEGER,
    "approvedById" TEXT,
    "intendedCommit" TEXT,
    "committedCommit" TEXT,
    "rejectionReason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ProposalRevision" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "proposalId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "content" TEXT,
    "contentHash" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "note" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ProposalRevision_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ProposalEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "proposalId" TEXT NOT NULL,
    "actorId" TEXT,
    "fromState" TEXT,
    "toState" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "contentHash" TEXT NOT NULL,
    "reason" TEXT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ProposalEvent_proposalId_fkey" FOREIGN KEY ("proposalId") REFERENCES "Proposal" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "StoreLock" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Proposal_projectId_state_createdAt_idx" ON "Proposal"("projectId", "state", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ProposalRevision_proposalId_revision_key" ON "ProposalRevision"("proposalId", "revision");

-- CreateIndex
CREATE INDEX "ProposalEvent_proposalId_at_idx" ON "ProposalEvent"("proposalId", "at");

