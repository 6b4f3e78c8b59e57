-- Per-project age thresholds for the staleness checks (JSON: days after which a memory of a type is old, null = never). Null: the defaults.
ALTER TABLE "Project" ADD COLUMN "staleAfterDays" TEXT;
