-- Earlier review cases take their email from their assessment's event (row locks only: assessments keep writing).
UPDATE "ReviewCase" c SET "email" = e."email"
  FROM "Event" e
 WHERE e."workspaceId" = c."workspaceId" AND e."requestId" = c."requestId" AND e."type" = 'assessment'
   AND e."email" IS NOT NULL AND c."email" IS NULL;
