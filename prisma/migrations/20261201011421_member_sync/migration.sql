-- Member sync: where each member's sync stands, and the idempotency keys of sync proposals.
CREATE TABLE "MemberSync" (
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "lastSyncAt" DATETIME NOT NULL,
    "clientVersion" TEXT NOT NULL,
    "heldCommit" TEXT,

    PRIMARY KEY ("projectId", "userId")
);

CREATE TABLE "SyncSubmission" (
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "proposalId" TEXT,
    "claimedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("projectId", "userId", "idempotencyKey")
);
