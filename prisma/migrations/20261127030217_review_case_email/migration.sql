-- A review case keeps its assessment's email address, also when the account is keyed by user_id, so a resolution
-- can add it to a list (server/cases/cases.ts). Open and resolved cases take it from their assessment's event.
-- AlterTable
ALTER TABLE "ReviewCase" ADD COLUMN     "email" TEXT;

UPDATE "ReviewCase" c SET "email" = e."email"
  FROM "Event" e
 WHERE e."workspaceId" = c."workspaceId" AND e."requestId" = c."requestId" AND e."type" = 'assessment'
   AND e."email" IS NOT NULL;
