-- Member sync: where each member's sync stands, and the idempotency keys of sync proposals.
CREATE TABLE "MemberSync" (
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "lastSyncAt" TIMESTAMP(3) NOT NULL,
    "clientVersion" TEXT NOT NULL,
    "heldCommit" TEXT,

    CONSTRAINT "MemberSync_pkey" PRIMARY KEY ("projectId","userId")
);

CREATE TABLE "SyncSubmission" (
    "projectId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "proposalId" TEXT,
    "claimedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SyncSubmission_pkey" PRIMARY KEY ("projectId","userId","idempotencyKey")
);
