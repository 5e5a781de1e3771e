-- AlterTable
ALTER TABLE "ScheduleLease" ADD COLUMN     "errorLoggedAt" TIMESTAMP(3),
ADD COLUMN     "failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "lastFailedAt" TIMESTAMP(3);
