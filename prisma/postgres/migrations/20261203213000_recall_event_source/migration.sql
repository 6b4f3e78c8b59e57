-- Where a recall came from: "agent" (an agent's prompt, the log of what agents were given) or "playground" (a person trying prompts on the Recall page, left out of the log's counts and of never-recalled). Every earlier row was logged as an agent's.
ALTER TABLE "RecallEvent" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'agent';
