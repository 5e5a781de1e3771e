-- AlterTable
ALTER TABLE "Rule" ADD COLUMN     "expression" TEXT,
ADD COLUMN     "mode" TEXT NOT NULL DEFAULT 'active',
ALTER COLUMN "conditions" DROP NOT NULL;
