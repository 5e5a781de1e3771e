// An assessment's write: its event, its address's velocity counters, one pending high-risk delivery per subscribed
// webhook, and the review case of a review or challenge decision, as ONE statement (data-modifying CTEs), so all of
// them or none are stored without an interactive transaction's round trips. Concurrent assessments go together as one
// statement: those of one turn of the event loop, then those that queued behind the writes in flight (two at once on
// PostgreSQL, one on the embedded store: server/db/grouped.ts); a group that fails goes row by row, so each request
// gets its own outcome. Each request answers only once its rows are stored (the next request's velocity sees them).
import { groupsInFlight, hotQuery, type Db } from "../db/client";
import { groupedWriter } from "../db/grouped";
import { noteRowsWritten } from "../db/statistics";
import { eventRow, type EventInput } from "../events/events";
import { sortableId } from "../ids";
import { logger } from "../operate/log";
import { deliveryEnvelope, HIGH_RISK_ASSESSMENT, subscribesTo } from "../webhooks/enqueue";

export interface AssessmentWrite {
  event: EventInput;
  /**
   * The high-risk notification's data (the answer), or null when the assessment is not high or critical, or when no
   * webhook of the workspace took high-risk notifications as its velocity was read (then none is queued).
   */
  highRisk: unknown | null;
  /** The case a review or challenge decision opens, or null. */
  reviewCase: {
    decision: string;
    score: number;
    rule: string | null;
    subject: string | null;
    ip: string | null;
    deviceId: string | null;
  } | null;
  /** Linked accounts' and cards' pairs ([key, other]) and decline counters' keys (./identity-keys.ts pairsOf). */
  identity?: { pairs: [string, string][]; declines: string[] };
}

// The delivery ids are made in the statement, one per subscribed webhook: `msg_` and 12 bytes of a random UUID in
// base64url, the shape of newId("msg").
const RECORD_SQL = `
WITH r AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS r("id" text, "workspaceId" text, "requestId" text, "type" text,
    "ip" text, "email" text, "emailNormalized" text, "domain" text, "rule" text, "subject" text, "device" text, "kind" text, "failed" boolean,
    "country" text, "asn" text, "latitude" float8, "longitude" float8, "hidesLocation" boolean, "data" jsonb,
    "createdAt" timestamp(3), "delivery" jsonb, "case" jsonb, "pairs" jsonb, "declines" jsonb)
), ev AS (
  INSERT INTO "Event" ("id", "workspaceId", "requestId", "type", "ip", "email", "emailNormalized", "domain", "rule",
    "subject", "device", "kind", "failed", "country", "asn", "latitude", "longitude", "hidesLocation", "data", "createdAt")
  SELECT "id", "workspaceId", "requestId", "type", "ip", "email", "emailNormalized", "domain", "rule", "subject", "device", "kind",
    "failed", "country", "asn", "latitude", "longitude", "hidesLocation", "data", "createdAt" FROM r
  RETURNING 1
), vc AS (
  -- Each address's assessments of their minute, which the velocity read sums (VelocityCount in prisma/schema.prisma);
  -- in key order, so concurrent writers lock the rows they share in one order.
  -- With them, the declines of a payment per address, device and card (./identity-keys.ts).
  INSERT INTO "VelocityCount" AS c ("workspaceId", "key", "minute", "count", "failed")
  SELECT r."workspaceId", k."key", date_trunc('minute', r."createdAt"), count(*), count(*) FILTER (WHERE k."failed")
    FROM r CROSS JOIN LATERAL (SELECT 'ip:' || r."ip", r."failed" WHERE r."ip" IS NOT NULL
      UNION ALL SELECT d, false FROM jsonb_array_elements_text(coalesce(r."declines", '[]')) d) k("key", "failed")
   GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT ("workspaceId", "key", "minute")
  DO UPDATE SET "count" = c."count" + excluded."count", "failed" = c."failed" + excluded."failed"
), vp AS (
  -- The last time each address was seen with an email, an account that failed from it, and (shared egress) any
  -- account and any device (VelocityPair); and the linked accounts' and cards' pairs (./identity-keys.ts).
  -- A pair's time is kept to the minute: a pair already seen in this minute is left alone (read, not locked or
  -- rewritten), so a returning user's pairs cost no write until the next minute. Its stored time is then the first
  -- sighting of the minute of its last: a window that reads pairs (an hour, a day, a week) may leave out one seen again
  -- in the minute at its start, up to 59 s early (the address counters read the events of that minute exactly).
  INSERT INTO "VelocityPair" AS p ("workspaceId", "key", "other", "lastAt")
  SELECT r."workspaceId", o."key", o."other", max(r."createdAt")
    FROM r CROSS JOIN LATERAL (SELECT 'ip:' || r."ip", v."other" FROM (VALUES ('email:' || r."emailNormalized"),
      (CASE WHEN r."failed" THEN 'failed:' || r."subject" END), ('account:' || r."subject"), ('device:' || r."device")) v("other")
      UNION ALL SELECT e->>0, e->>1 FROM jsonb_array_elements(coalesce(r."pairs", '[]')) e) o("key", "other")
   WHERE o."key" IS NOT NULL AND o."other" IS NOT NULL
   GROUP BY 1, 2, 3
  HAVING NOT EXISTS (SELECT 1 FROM "VelocityPair" q WHERE q."workspaceId" = r."workspaceId" AND q."key" = o."key"
     AND q."other" = o."other" AND q."lastAt" >= date_trunc('minute', max(r."createdAt")))
   ORDER BY 1, 2, 3
  ON CONFLICT ("workspaceId", "key", "other") DO UPDATE SET "lastAt" = excluded."lastAt"
   WHERE p."lastAt" < date_trunc('minute', excluded."lastAt")
), dl AS (
  INSERT INTO "WebhookDelivery" ("id", "webhookId", "workspaceId", "eventType", "requestId", "payload", "status",
    "nextAttemptAt", "createdAt")
  SELECT 'msg_' || translate(encode(substring(uuid_send(gen_random_uuid()) from 1 for 12), 'base64'), '+/', '-_'),
    w."id", r."workspaceId", '${HIGH_RISK_ASSESSMENT}', r."requestId", r."delivery", 'pending', r."createdAt",
    r."createdAt"
  FROM r JOIN "Webhook" w ON ${subscribesTo("w", `r."workspaceId"`, HIGH_RISK_ASSESSMENT)}
  WHERE r."delivery" IS NOT NULL
  RETURNING 1
), cs AS (
  INSERT INTO "ReviewCase" ("id", "workspaceId", "requestId", "decision", "score", "rule", "subject", "email", "ip",
    "deviceId", "status", "createdAt")
  SELECT r."case"->>'id', r."workspaceId", r."requestId", r."case"->>'decision', (r."case"->>'score')::int,
    r."case"->>'rule', r."case"->>'subject', r."email", r."case"->>'ip', r."case"->>'deviceId', 'open', r."createdAt"
  FROM r WHERE r."case" IS NOT NULL
  RETURNING 1
)
SELECT (SELECT count(*) FROM ev) AS "events", (SELECT count(*) FROM dl) AS "deliveries",
  (SELECT count(*) FROM cs) AS "cases",
  -- Background work is durable: a group that queues a delivery or opens a case waits for its commit's disk flush on
  -- connections that do not (server/db/config.ts hotCommitsAsync); a stricter setting is left as it is. Local to this
  -- statement's transaction.
  (SELECT set_config('synchronous_commit', 'on', true)
    WHERE current_setting('synchronous_commit') = 'off'
      AND EXISTS (SELECT 1 FROM r WHERE r."delivery" IS NOT NULL OR r."case" IS NOT NULL)) AS "flushed"`;

/** The events' column no statement plans by: left out of the statistics' refresh (server/db/statistics.ts). */
export const EVENT_COLUMNS_NOT_ANALYSED = ["data"] as const;

/** At most this many assessments in one statement. */
const MAX_GROUP = 100;

type Row = ReturnType<typeof eventRow> & {
  delivery: unknown;
  case: Record<string, unknown> | null;
  pairs: [string, string][] | null;
  declines: string[] | null;
};

interface Waiter {
  db: Db;
  row: Row;
  resolve(): void;
  reject(err: unknown): void;
}

async function write(db: Db, rows: Row[]): Promise<void> {
  await hotQuery(db, "service_record_assessments", RECORD_SQL, [JSON.stringify(rows)]);
  // The velocity read's plans follow the events' and counters' statistics (server/db/statistics.ts); never awaited by
  // a request. A counter's row is new at most once per event (most events add to their minute's row).
  for (const [table, skip] of [
    ["Event", EVENT_COLUMNS_NOT_ANALYSED],
    ["VelocityCount", []],
    ["VelocityPair", []],
  ] as const)
    noteRowsWritten(db, table, rows.length, skip)?.catch((err: unknown) =>
      logger().warn({ err, component: "statistics", table }, "could not refresh a table's planner statistics"),
    );
}

const writes = groupedWriter<Db, Waiter>({
  max: MAX_GROUP,
  async group(items) {
    try {
      await write(
        items[0]!.db,
        items.map((w) => w.row),
      );
    } catch {
      return false; // nothing of the group was stored: row by row, each request learns its own outcome
    }
    for (const w of items) w.resolve();
    return true;
  },
  one: (w) => write(w.db, [w.row]).then(() => w.resolve(), w.reject),
  inFlight: (w) => groupsInFlight(w.db),
});

/** Stores the assessment's event with its deliveries and case; resolves once they are stored, rejects if not. */
export function recordAssessment(db: Db, w: AssessmentWrite): Promise<void> {
  const event = eventRow(w.event);
  const row: Row = {
    ...event,
    delivery: w.highRisk === null ? null : deliveryEnvelope(HIGH_RISK_ASSESSMENT, event, w.highRisk),
    case: w.reviewCase && { id: sortableId("case"), ...w.reviewCase },
    pairs: w.identity?.pairs.length ? w.identity.pairs : null,
    declines: w.identity?.declines.length ? w.identity.declines : null,
  };
  return new Promise((resolve, reject) => writes.add(db, { db, row, resolve, reject }));
}
