-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "asn" TEXT,
ADD COLUMN     "country" TEXT,
ADD COLUMN     "failed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "hidesLocation" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "kind" TEXT,
ADD COLUMN     "latitude" DOUBLE PRECISION,
ADD COLUMN     "longitude" DOUBLE PRECISION;

-- Backfill: the assessments of the account baseline's window (90 days) get the values the velocity read used to take
-- from "data", so baselines, travel and failure counters carry over unchanged.
UPDATE "Event" SET
  "kind" = "data"->>'event',
  "failed" = coalesce("data"->>'status' = 'failed', false),
  "country" = "data"->'facts'->>'ip.country',
  "asn" = "data"->'facts'->>'ip.asn',
  "latitude" = CASE WHEN jsonb_typeof("data"->'geo') = 'array' THEN ("data"->'geo'->>0)::double precision END,
  "longitude" = CASE WHEN jsonb_typeof("data"->'geo') = 'array' THEN ("data"->'geo'->>1)::double precision END,
  "hidesLocation" = coalesce("data"->>'hides_location' = 'true', false)
 WHERE "type" = 'assessment' AND "createdAt" >= now() - interval '90 days';
