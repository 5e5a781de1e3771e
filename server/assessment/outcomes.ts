// Outcome labels: what a workspace later learned about an assessed request (fraud, a chargeback, or legitimate).
// Each label is an investigation event (`assessment.outcome`, under the assessed request's id); a new label replaces
// the previous one, so the newest event per request is the label. Only a request this workspace assessed can be
// labelled: another workspace's request id is answered as not found.
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { recordEvent } from "../events/events";

export const OUTCOMES = ["fraud", "legitimate", "chargeback", "account_takeover", "abuse"] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const OUTCOME_EVENT = "assessment.outcome";

/** Every label but `legitimate` says the request was harmful: it counts as fraud in precision and recall. */
export const isFraudLike = (o: string) => o !== "legitimate" && (OUTCOMES as readonly string[]).includes(o);

export interface OutcomeRecord {
  request_id: string;
  outcome: Outcome;
  note: string | null;
  previous: Outcome | null;
  labelled_at: string;
}

export async function labelOutcomeOrThrow(
  db: Pick<Db, "event" | "$executeRawUnsafe">,
  a: {
    workspaceId: string;
    labelRequestId: string;
    requestId: string;
    outcome: Outcome;
    note: string | null;
    actor: string;
  },
): Promise<OutcomeRecord> {
  const assessed = await db.event.findFirst({
    where: { workspaceId: a.workspaceId, requestId: a.requestId, type: "assessment" },
    select: { id: true, ip: true, subject: true },
  });
  if (!assessed) throw new AppError("NOT_FOUND", `No assessment ${a.requestId} in this workspace.`);
  const previous = await latestOutcome(db, a.workspaceId, a.requestId);
  const at = new Date();
  await recordEvent(db, {
    workspaceId: a.workspaceId,
    requestId: a.requestId,
    type: OUTCOME_EVENT,
    data: { outcome: a.outcome, note: a.note, previous, labelled_by: a.actor, label_request_id: a.labelRequestId },
  });
  if (assessed.ip && assessed.subject)
    await db.$executeRawUnsafe(
      FRAUD_PAIR_SQL,
      a.workspaceId,
      assessed.ip,
      assessed.subject,
      FRAUD_LIKE,
      new Date(Date.now() - 7 * 86_400_000),
    );
  return { request_id: a.requestId, outcome: a.outcome, note: a.note, previous, labelled_at: at.toISOString() };
}

const FRAUD_LIKE = OUTCOMES.filter(isFraudLike);

/**
 * Shared egress (issue 43, item 4): the address's 'fraud:<account>' pair (VelocityPair, which the velocity read counts
 * as ip.fraud_users_24h) holds the time of the account's newest assessment from the address whose current label is
 * fraud-like, within the pairs' 7 days; none, no pair. Worked out again from the events at every label of the
 * account's assessment there, so a label replaced by `legitimate` takes its pair away. $1 workspace, $2 address, $3
 * account, $4 the fraud-like outcomes, $5 the oldest time a pair counts (7 days ago).
 */
const FRAUD_PAIR_SQL = `
WITH f AS (
  SELECT max(e."createdAt") AS "at" FROM "Event" e
   WHERE e."workspaceId" = $1 AND e."subject" = $3 AND e."type" = 'assessment' AND e."ip" = $2
     AND e."createdAt" >= $5::timestamp(3)
     AND (SELECT o."data"->>'outcome' FROM "Event" o
           WHERE o."workspaceId" = e."workspaceId" AND o."requestId" = e."requestId" AND o."type" = '${OUTCOME_EVENT}'
           ORDER BY o."createdAt" DESC, o."id" DESC LIMIT 1) = ANY($4::text[])
), gone AS (
  DELETE FROM "VelocityPair"
   WHERE "workspaceId" = $1 AND "key" = 'ip:' || $2 AND "other" = 'fraud:' || $3 AND (SELECT "at" FROM f) IS NULL
)
INSERT INTO "VelocityPair" ("workspaceId", "key", "other", "lastAt")
SELECT $1, 'ip:' || $2, 'fraud:' || $3, "at" FROM f WHERE "at" IS NOT NULL
ON CONFLICT ("workspaceId", "key", "other") DO UPDATE SET "lastAt" = excluded."lastAt"`;

async function latestOutcome(db: Pick<Db, "event">, workspaceId: string, requestId: string): Promise<Outcome | null> {
  const row = await db.event.findFirst({
    where: { workspaceId, requestId, type: OUTCOME_EVENT },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { data: true },
  });
  return ((row?.data as { outcome?: Outcome } | undefined)?.outcome ?? null) as Outcome | null;
}

/** The current label of every request labelled at or after `since` (a label always follows its assessment). */
export async function outcomesSince(db: Db, a: { workspaceId: string; since: Date }): Promise<Map<string, Outcome>> {
  const rows = await db.$queryRawUnsafe<{ requestId: string; outcome: string }[]>(
    `SELECT DISTINCT ON ("requestId") "requestId", "data"->>'outcome' AS "outcome" FROM "Event"
      WHERE "workspaceId" = $1 AND "type" = $2 AND "createdAt" >= $3::timestamp(3)
      ORDER BY "requestId", "createdAt" DESC, "id" DESC`,
    a.workspaceId,
    OUTCOME_EVENT,
    a.since,
  );
  return new Map(
    rows
      .filter((r) => (OUTCOMES as readonly string[]).includes(r.outcome))
      .map((r) => [r.requestId, r.outcome as Outcome]),
  );
}
