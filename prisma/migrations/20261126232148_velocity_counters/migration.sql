-- CreateTable
CREATE TABLE "VelocityCount" (
    "workspaceId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "minute" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,
    "failed" INTEGER NOT NULL,

    CONSTRAINT "VelocityCount_pkey" PRIMARY KEY ("workspaceId","key","minute")
);

-- CreateTable
CREATE TABLE "VelocityPair" (
    "workspaceId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "other" TEXT NOT NULL,
    "lastAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VelocityPair_pkey" PRIMARY KEY ("workspaceId","key","other")
);

-- Backfill from the assessments of the shortest event retention (90 days, and a day to spare: what the purge keeps),
-- so an address's counts carry over for any signal window up to that. The tables are new, so nothing conflicts here;
-- the tests run these statements again, for one workspace, over events they insert straight into "Event"
-- (test/assessment/seeded-events.ts).
INSERT INTO "VelocityCount" ("workspaceId", "key", "minute", "count", "failed")
SELECT "workspaceId", 'ip:' || "ip", date_trunc('minute', "createdAt"), count(*), count(*) FILTER (WHERE "failed")
  FROM "Event"
 WHERE "type" = 'assessment' AND "ip" IS NOT NULL AND "createdAt" >= now() - interval '91 days'
 GROUP BY 1, 2, 3
ON CONFLICT DO NOTHING;

INSERT INTO "VelocityPair" ("workspaceId", "key", "other", "lastAt")
SELECT "workspaceId", 'ip:' || "ip", "other", max("createdAt")
  FROM (
    SELECT "workspaceId", "ip", 'email:' || "email" AS "other", "createdAt"
      FROM "Event"
     WHERE "type" = 'assessment' AND "ip" IS NOT NULL AND "email" IS NOT NULL
       AND "createdAt" >= now() - interval '91 days'
    UNION ALL
    SELECT "workspaceId", "ip", 'failed:' || "subject", "createdAt"
      FROM "Event"
     WHERE "type" = 'assessment' AND "ip" IS NOT NULL AND "subject" IS NOT NULL AND "failed"
       AND "createdAt" >= now() - interval '91 days'
  ) p
 GROUP BY 1, 2, 3
ON CONFLICT DO NOTHING;
