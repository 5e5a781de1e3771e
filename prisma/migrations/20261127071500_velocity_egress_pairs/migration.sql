-- Shared egress (issue 43): the assessment's write now also keeps, per address, the last time each account and each
-- device was seen from it (VelocityPair rows 'account:<subject>' and 'device:<device_id>'), which the velocity read
-- counts as the distinct accounts and devices of an address in 24 hours and 7 days. Backfilled from the assessments
-- of the shortest event retention (90 days, and a day to spare), as the counters' own migration did; the tests run
-- these statements again, for one workspace (test/assessment/seeded-events.ts).
INSERT INTO "VelocityPair" ("workspaceId", "key", "other", "lastAt")
SELECT "workspaceId", 'ip:' || "ip", "other", max("createdAt")
  FROM (
    SELECT "workspaceId", "ip", 'account:' || "subject" AS "other", "createdAt"
      FROM "Event"
     WHERE "type" = 'assessment' AND "ip" IS NOT NULL AND "subject" IS NOT NULL
       AND "createdAt" >= now() - interval '91 days'
    UNION ALL
    SELECT "workspaceId", "ip", 'device:' || "device", "createdAt"
      FROM "Event"
     WHERE "type" = 'assessment' AND "ip" IS NOT NULL AND "device" IS NOT NULL
       AND "createdAt" >= now() - interval '91 days'
  ) p
 GROUP BY 1, 2, 3
ON CONFLICT ("workspaceId", "key", "other") DO UPDATE SET "lastAt" = greatest("VelocityPair"."lastAt", excluded."lastAt");
