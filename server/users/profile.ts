// GET /users/{user_id}: one account of the workspace as a fraud analyst reads it (issue 45, item 2): its baseline
// (what its succeeded assessments of the last 90 days looked like), its identifiers of the last 30 days (devices,
// canonical mailboxes, phone numbers, cards), the other accounts linked to it by them, and its recent assessments,
// newest first, by cursor. Every read filters on the workspace; an account the workspace never assessed is 404.
import { accountSubject, BASELINE_DAYS } from "../assessment/account";
import { canonicalEmail } from "../email/canonical";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { identifiersOf, linkedAccountsOf } from "./linked";
import type { UserAssessment, UserProfile } from "./schemas";

type EventData = {
  event?: string;
  status?: string;
  score?: number;
  risk_level?: string;
  decision?: string;
  facts?: Record<string, unknown>;
  payment?: UserAssessment["payment"];
};

const BASELINE_SQL = `
SELECT min("createdAt") FILTER (WHERE NOT "failed") AS "first",
       max("createdAt") FILTER (WHERE NOT "failed") AS "last",
       count(*) FILTER (WHERE NOT "failed" AND "createdAt" >= $4) AS "ok30",
       count(*) FILTER (WHERE "failed" AND "createdAt" >= $4) AS "failed30",
       array_agg(DISTINCT "country") FILTER (WHERE NOT "failed" AND "createdAt" >= $4 AND "country" IS NOT NULL) AS "countries",
       count(DISTINCT "device") FILTER (WHERE NOT "failed" AND "createdAt" >= $4) AS "devices",
       count(DISTINCT "ip") FILTER (WHERE NOT "failed" AND "createdAt" >= $4) AS "ips"
  FROM "Event"
 WHERE "workspaceId" = $1 AND "type" = 'assessment' AND "subject" = $2 AND "createdAt" >= $3`;

/** Which kind of account a name opens: the user_id sent to /assess, or the email-keyed account of its mailbox. */
export type AccountKey = "user_id" | "email";

export async function getUserProfileOrThrow(
  db: Db,
  a: { workspaceId: string; userId: string; key?: AccountKey; limit: number; cursor?: string; now?: Date },
): Promise<UserProfile> {
  const now = a.now ?? new Date();
  const { subject, otherKey } = await subjectOf(db, a.workspaceId, a.userId, a.key);
  const day = 86_400_000;
  const [base, events, identifiers, linked, cursorIsKnown] = await Promise.all([
    db.$queryRawUnsafe<Record<string, unknown>[]>(
      BASELINE_SQL,
      a.workspaceId,
      subject,
      new Date(now.getTime() - BASELINE_DAYS * day),
      new Date(now.getTime() - 30 * day),
    ),
    db.event.findMany({
      where: { workspaceId: a.workspaceId, type: "assessment", subject },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: a.limit + 1,
      ...(a.cursor ? { cursor: { id: a.cursor }, skip: 1 } : {}),
    }),
    identifiersOf(db, { workspaceId: a.workspaceId, subject, now }),
    linkedAccountsOf(db, { workspaceId: a.workspaceId, subject, now }),
    a.cursor === undefined ? true : isAssessmentOf(db, { workspaceId: a.workspaceId, subject, id: a.cursor }),
  ]);
  // A later page may be empty, but only after a cursor that is one of this account's assessments here (which also
  // proves the account known). An account this workspace never assessed (another workspace's included) is 404
  // whatever the cursor; a cursor that names none of a known account's assessments is 400.
  const notFound = () => new AppError("NOT_FOUND", `No assessment of user ${a.userId} in this workspace.`);
  if (events.length === 0 && a.cursor === undefined) throw notFound();
  if (!cursorIsKnown) {
    if (!(await isAssessmentOf(db, { workspaceId: a.workspaceId, subject }))) throw notFound();
    throw new AppError(
      "INVALID_REQUEST",
      "cursor: unknown cursor; use the assessments.next_cursor of the previous page of this account.",
    );
  }
  const b = base[0] ?? {};
  const page = events.slice(0, a.limit);
  const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
  return {
    user_id: a.userId,
    key: subject.startsWith("user:") ? ("user_id" as const) : ("email" as const),
    other_key: otherKey,
    baseline: {
      first_seen_at: iso(b.first),
      last_seen_at: iso(b.last),
      assessments_30d: Number(b.ok30 ?? 0),
      failed_30d: Number(b.failed30 ?? 0),
      countries_30d: Array.isArray(b.countries) ? (b.countries as string[]).sort() : [],
      devices_30d: Number(b.devices ?? 0),
      ips_30d: Number(b.ips ?? 0),
    },
    identifiers,
    linked_accounts: linked,
    assessments: {
      items: page.map((e) => {
        const d = e.data as EventData;
        return {
          request_id: e.requestId,
          event: d.event ?? "",
          status: d.status === "failed" ? ("failed" as const) : ("succeeded" as const),
          score: d.score ?? 0,
          risk_level: d.risk_level ?? "",
          decision: d.decision ?? "",
          ip: e.ip,
          country: e.country,
          device_id: e.device,
          email: e.email,
          payment: d.payment ?? null,
          created_at: e.createdAt.toISOString(),
        };
      }),
      next_cursor: events.length > a.limit ? page[page.length - 1]!.id : null,
    },
  };
}

/**
 * The account a `user_id` of this route names, and whether the other kind of account exists under the same name.
 * Two keys: the user_id sent to /assess ("user:<id>"), and for assessments sent without one the address's canonical
 * mailbox ("email:<mailbox>", server/assessment/assess.ts velocityKeysOf), so any spelling of it opens that account.
 * An email address sent as a user_id names both; they are different accounts, so neither may hide the other: `key`
 * picks one, and without it the user_id's account is read first (then the mailbox's), and `otherKey` says the other
 * exists.
 */
async function subjectOf(
  db: Db,
  workspaceId: string,
  userId: string,
  key: AccountKey | undefined,
): Promise<{ subject: string; otherKey: AccountKey | null }> {
  const user = `user:${userId}`;
  const mailbox = accountSubject(null, canonicalEmail(userId).normalized)!;
  // Only an address can name an email-keyed account (/assess takes no email that is not one).
  if (!userId.includes("@")) return { subject: key === "email" ? mailbox : user, otherKey: null };
  const [asUser, asEmail] = await Promise.all([
    isAssessmentOf(db, { workspaceId, subject: user }),
    isAssessmentOf(db, { workspaceId, subject: mailbox }),
  ]);
  const chosen: AccountKey = key ?? (asUser || !asEmail ? "user_id" : "email");
  const otherKey: AccountKey | null = chosen === "user_id" ? (asEmail ? "email" : null) : asUser ? "user_id" : null;
  return { subject: chosen === "user_id" ? user : mailbox, otherKey };
}

/** Whether the workspace holds an assessment of the account (the one with `id`, when given). */
async function isAssessmentOf(db: Db, a: { workspaceId: string; subject: string; id?: string }): Promise<boolean> {
  const hit = await db.event.findFirst({
    where: {
      ...(a.id === undefined ? {} : { id: a.id }),
      workspaceId: a.workspaceId,
      type: "assessment",
      subject: a.subject,
    },
    select: { id: true },
  });
  return hit !== null;
}
