-- A review case keeps its assessment's email address, also when the account is keyed by user_id, so a resolution
-- can add it to a list (server/cases/cases.ts). Filled for earlier cases by the next migration, apart from this one:
-- adding the column locks the table until its migration commits, and every assessment's write touches it.
-- AlterTable
ALTER TABLE "ReviewCase" ADD COLUMN     "email" TEXT;
