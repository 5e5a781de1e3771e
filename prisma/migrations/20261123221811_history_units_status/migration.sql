-- AlterTable
ALTER TABLE "LookupHistory" ADD COLUMN     "code" TEXT,
ADD COLUMN     "status" INTEGER,
ADD COLUMN     "units" INTEGER;
