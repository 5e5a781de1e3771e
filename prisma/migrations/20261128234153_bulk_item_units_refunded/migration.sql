-- AlterTable
ALTER TABLE "BulkItem" ADD COLUMN     "unitsRefunded" INTEGER DEFAULT 0;

-- Items settled before the count was kept: a cancelled or failed item that gave units back gave them all; a
-- succeeded one gave back a part (a CIDR range's unanswered addresses) that was not recorded.
UPDATE "BulkItem" SET "unitsRefunded" = "units" WHERE "refunded" AND "status" IN ('cancelled', 'failed');
UPDATE "BulkItem" SET "unitsRefunded" = NULL WHERE "refunded" AND "status" NOT IN ('cancelled', 'failed');
