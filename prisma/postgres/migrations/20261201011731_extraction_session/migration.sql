-- Extraction sessions: the cursor of server-side extraction per Claude Code session, and the redacted excerpt a member shared.
CREATE TABLE "ExtractionSession" (
    "projectId" TEXT NOT NULL,
    "sessionId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "cursor" TEXT,
    "excerpt" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ExtractionSession_pkey" PRIMARY KEY ("projectId","sessionId")
);
