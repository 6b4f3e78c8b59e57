-- Project administration: repository URLs, archiving, self-approval for one-lead teams.
ALTER TABLE "Project" ADD COLUMN "repoUrls" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "Project" ADD COLUMN "archivedAt" DATETIME;
ALTER TABLE "Project" ADD COLUMN "allowSelfApproval" BOOLEAN NOT NULL DEFAULT false;
