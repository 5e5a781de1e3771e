-- Project monitors orphaned before 161474c: deleting a project (DELETE /v1/projects/{name}) left the monitor that
-- watched it, which then failed every run ("no stored scan of its default ref") and alerted, until someone deleted it
-- by hand. Since 161474c the deletion deletes that monitor in its own transaction; this removes the ones left before,
-- as DELETE /v1/monitors/{id} does (its runs, alerts and queued emails, and an audit.monitor.deleted event, actor
-- system), in one statement.
-- An orphan is a monitor with the project check whose workspace has no scan of that project left (live or expired)
-- and whose project was deleted (audit.project.deleted of that name in the workspace) after the monitor was created
-- (a minute's margin: the creation raced with the deletion). A project whose scans expired without a deletion, or
-- that was scanned again after it, keeps its monitor: a new scan of that name brings it back. A deletion whose audit
-- event the retention purge has already removed cannot be told from an expiry: such a monitor stays.
WITH "orphan" AS (
  SELECT m.*, row_number() OVER (ORDER BY m."id") AS "n"
  FROM "Monitor" m
  WHERE m."checks" @> '[{"type": "project"}]'::jsonb
    AND NOT EXISTS (
      SELECT 1 FROM "ProjectScan" s WHERE s."workspaceId" = m."workspaceId" AND s."project" = m."target")
    AND EXISTS (
      SELECT 1 FROM "Event" e
      WHERE e."workspaceId" = m."workspaceId" AND e."type" = 'audit.project.deleted'
        AND e."data" -> 'target' ->> 'id' = m."target"
        AND e."createdAt" >= m."createdAt" - interval '1 minute')
),
"ids" AS (
  SELECT "id", 'evt_' || lpad(to_hex((extract(epoch FROM clock_timestamp()) * 1000)::bigint), 12, '0')
      || lpad(to_hex("n"::int), 4, '0') || substr(md5(random()::text || "id"), 1, 12) AS "eventId"
  FROM "orphan"
),
"runs" AS (DELETE FROM "MonitorRun" WHERE "monitorId" IN (SELECT "id" FROM "orphan")),
"alerts" AS (DELETE FROM "MonitorAlert" WHERE "monitorId" IN (SELECT "id" FROM "orphan")),
"emails" AS (DELETE FROM "MonitorEmail" WHERE "monitorId" IN (SELECT "id" FROM "orphan")),
"audit" AS (
  INSERT INTO "Event" ("id", "workspaceId", "requestId", "type", "actor", "data", "createdAt")
  SELECT i."eventId", o."workspaceId", i."eventId", 'audit.monitor.deleted', 'system',
    jsonb_build_object(
      'actor', jsonb_build_object('kind', 'system', 'reason',
        'The watched project ' || o."target" || ' was deleted'),
      'target', jsonb_build_object('kind', 'monitor', 'id', o."id", 'label', coalesce(o."name", o."target")),
      'before', jsonb_build_object('name', o."name", 'target', o."target", 'checks', o."checks",
        'interval', o."interval", 'thresholds', o."thresholds", 'status', o."status", 'email_alerts', o."emailAlerts"),
      'after', null, 'ip', null, 'user_agent', null),
    now() AT TIME ZONE 'UTC'
  FROM "orphan" o JOIN "ids" i ON i."id" = o."id"
)
DELETE FROM "Monitor" WHERE "id" IN (SELECT "id" FROM "orphan");
