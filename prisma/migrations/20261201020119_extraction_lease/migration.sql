-- X4: one extraction run per session at a time. A run takes the lease (a conditional update), and only the run holding it may move the cursor.
ALTER TABLE "ExtractionSession" ADD COLUMN "leaseId" TEXT;
ALTER TABLE "ExtractionSession" ADD COLUMN "leaseUntil" DATETIME;
