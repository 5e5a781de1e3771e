// Velocity: how often the same IP, email, device or user was assessed in this workspace recently. Repeats in a short
// window are the mark of credential stuffing, sign-up farms and card testing. Only this workspace's events count.
// One query answers both the scored signals (the configured window) and the rule facts (1 h, 24 h, 7 d counts per
// key, distinct users per device and emails per IP), so an assessment pays for one statement, not fifteen; each key is
// reached through its own index (workspace, key, time), never by a scan of the workspace's recent events.
// Concurrent assessments of one workspace read together: while one read is in flight, the ones that arrive queue
// behind it and then go as ONE statement, a row of counts per assessment (server/db/grouped.ts). A lone assessment
// goes at once; a group whose statement fails reads again one by one, so each gets its own outcome.
import { hotQuery, type Db } from "../db/client";
import { groupedWriter } from "../db/grouped";
import type { Facts } from "../rules/facts";
import { accountColumns, accountWhere, BASELINE_DAYS } from "./account";
import { velocityWindowMinutes } from "./config";
import type { Signal, SourceRef } from "./schemas";

/** Earlier assessments at or above `at` add `weight`; the first tier reached (highest first) applies. */
const TIERS = {
  ip: [
    { at: 20, weight: 30 },
    { at: 5, weight: 15 },
  ],
  email: [
    { at: 10, weight: 35 },
    { at: 3, weight: 20 },
  ],
  device: [
    { at: 20, weight: 30 },
    { at: 5, weight: 15 },
  ],
} as const;

const LABEL = { ip: "IP address", email: "email address", device: "device" } as const;
const WINDOW_MS = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 } as const;

type Row = Record<string, unknown>;

/** One assessment's keys and window bounds, as the grouped statement reads them (jsonb_to_recordset). */
interface Member {
  ip: string;
  email: string | null;
  device: string | null;
  usr: string | null;
  subject: string | null;
  /** Window bounds, ISO timestamps: the oldest row any count needs, the signal window, 1 h, 24 h, 7 d, 90 d, 30 d. */
  oldest: string;
  sig: string;
  h1: string;
  h24: string;
  d7: string;
  base: string;
  d30: string;
}

interface Waiter {
  db: Db;
  workspaceId: string;
  alsoRead: Record<string, string>;
  member: Member;
  resolve(row: Row): void;
  reject(err: unknown): void;
}

/** At most this many assessments in one statement. */
const MAX_GROUP = 100;

/**
 * The statement for a group (of one or more): $1 the workspace, $2 the members as a JSON array. Each member's counts
 * come from a LATERAL subquery that reaches its keys through their indexes; the `alsoRead` expressions (over $1
 * only) are computed once and returned on the first row.
 */
function velocitySql(alsoRead: Record<string, string>): string {
  const dev = `"device" = m."device"`;
  const usr = `"subject" = ('user:' || m."usr")`;
  const win = { sig: `m."sig"`, "1h": `m."h1"`, "24h": `m."h24"`, "7d": `m."d7"` } as const;
  const cols: string[] = [];
  for (const [w, p] of Object.entries(win)) {
    cols.push(`count(*) FILTER (WHERE "ip" = m."ip" AND "createdAt" >= ${p}) AS "ip_${w}"`);
    cols.push(`count(*) FILTER (WHERE "email" = m."email" AND "createdAt" >= ${p}) AS "email_${w}"`);
    cols.push(`count(*) FILTER (WHERE ${dev} AND "createdAt" >= ${p}) AS "device_${w}"`);
    if (w === "sig") continue;
    cols.push(`count(*) FILTER (WHERE ${usr} AND "createdAt" >= ${p}) AS "user_${w}"`);
    cols.push(
      `count(DISTINCT "data"->>'user_id') FILTER (WHERE ${dev} AND "createdAt" >= ${p} AND ("data"->>'user_id') IS DISTINCT FROM m."usr") AS "device_users_${w}"`,
    );
    cols.push(
      `count(DISTINCT "email") FILTER (WHERE "ip" = m."ip" AND "createdAt" >= ${p} AND "email" IS DISTINCT FROM m."email") AS "ip_emails_${w}"`,
    );
  }
  cols.push(
    ...accountColumns({
      subject: `m."subject"`,
      ip: `m."ip"`,
      device: `m."device"`,
      hour: win["1h"],
      month: `m."d30"`,
    }),
  );
  const keys = [`"ip" = m."ip"`, `"email" = m."email"`, dev, usr]
    .map((key) => `("workspaceId" = $1 AND ${key} AND "createdAt" >= m."oldest")`)
    .join(" OR ");
  const also = Object.entries(alsoRead).map(([name, sql]) => `, CASE WHEN m."i" = 0 THEN ${sql} END AS "${name}"`);
  return `SELECT m."i"${also.join("")}, v.*
    FROM jsonb_to_recordset($2::jsonb) AS m("i" int, "ip" text, "email" text, "device" text, "usr" text,
      "subject" text, "oldest" timestamp(3), "sig" timestamp(3), "h1" timestamp(3), "h24" timestamp(3),
      "d7" timestamp(3), "base" timestamp(3), "d30" timestamp(3))
    CROSS JOIN LATERAL (SELECT ${cols.join(", ")} FROM "Event"
      WHERE "type" = 'assessment' AND (${keys} OR ("workspaceId" = $1 AND ${accountWhere(`m."subject"`, `m."base"`)}))) v`;
}

const statements = new Map<string, { name: string; text: string }>();

/** Reads the counts of a group of one workspace's assessments; one row per member, in their order. */
async function readGroup(db: Db, workspaceId: string, alsoRead: Record<string, string>, members: Member[]) {
  const key = Object.keys(alsoRead).join("_");
  let st = statements.get(key);
  if (!st) statements.set(key, (st = { name: `service_velocity_${key}`, text: velocitySql(alsoRead) }));
  const rows = await hotQuery<Row>(db, st.name, st.text, [
    workspaceId,
    JSON.stringify(members.map((m, i) => ({ ...m, i }))),
  ]);
  const byMember: Row[] = [];
  for (const { i, ...counts } of rows) byMember[Number(i)] = counts;
  // The `alsoRead` values came on the first row; every member gets them.
  const also = Object.fromEntries(Object.keys(alsoRead).map((name) => [name, byMember[0]?.[name]]));
  return members.map((_, i) => ({ ...byMember[i], ...also }));
}

const reads = groupedWriter<string, Waiter>({
  max: MAX_GROUP,
  async group(items) {
    const first = items[0]!;
    let rows: Row[];
    try {
      rows = await readGroup(
        first.db,
        first.workspaceId,
        first.alsoRead,
        items.map((w) => w.member),
      );
    } catch {
      return false; // the statement failed as a whole: one by one, each assessment learns its own outcome
    }
    items.forEach((w, i) => w.resolve(rows[i]!));
    return true;
  },
  one: (w) =>
    readGroup(w.db, w.workspaceId, w.alsoRead, [w.member]).then(
      (rows) => w.resolve(rows[0]!),
      (err: unknown) => w.reject(err),
    ),
});
const dbIds = new WeakMap<Db, number>();
let nextDbId = 0;

/** Only reads of one database, workspace and set of extra expressions (named by their columns) group. */
function laneKey(db: Db, workspaceId: string, alsoRead: Record<string, string>): string {
  let id = dbIds.get(db);
  if (id === undefined) dbIds.set(db, (id = nextDbId++));
  return `${id}|${workspaceId}|${Object.keys(alsoRead).join("_")}`;
}

/**
 * `alsoRead`: other scalar SQL expressions over the workspace ($1) to read in the same statement, by column name
 * (the assessment reads its enabled rules this way: one round trip instead of two); returned in `also`.
 */
export async function velocitySignals(
  db: Db,
  a: {
    workspaceId: string;
    ip: string;
    email: string | null;
    deviceId: string | null;
    userId?: string | null;
    /** The account (server/assessment/account.ts): its baseline and failure counters are read here too. */
    subject?: string | null;
    now?: Date;
  },
  alsoRead: Record<string, string> = {},
): Promise<{
  signals: Signal[];
  source: SourceRef;
  facts: Facts;
  also: Record<string, unknown>;
  /** The account columns, for accountEvidence. */
  row: Row;
}> {
  const minutes = velocityWindowMinutes();
  const now = (a.now ?? new Date()).getTime();
  const at = (ms: number) => new Date(now - ms).toISOString();
  const member: Member = {
    ip: a.ip,
    email: a.email,
    device: a.deviceId,
    usr: a.userId ?? null,
    subject: a.subject ?? null,
    oldest: at(Math.max(minutes * 60_000, WINDOW_MS["7d"])),
    sig: at(minutes * 60_000),
    h1: at(WINDOW_MS["1h"]),
    h24: at(WINDOW_MS["24h"]),
    d7: at(WINDOW_MS["7d"]),
    base: at(BASELINE_DAYS * 86_400_000),
    d30: at(30 * 86_400_000),
  };
  const row = await new Promise<Row>((resolve, reject) =>
    reads.add(laneKey(db, a.workspaceId, alsoRead), {
      db,
      workspaceId: a.workspaceId,
      alsoRead,
      member,
      resolve,
      reject,
    }),
  );
  const also: Record<string, unknown> = {};
  for (const name of Object.keys(alsoRead)) also[name] = row[name];
  return { ...velocityFromRow(row, a, minutes, now), also, row };
}

/**
 * The signals and rule facts of the velocity statement's row of counts (the benchmark's bare reference builds the
 * same row from counts in memory).
 */
export function velocityFromRow(
  row: Row,
  a: { email: string | null; deviceId: string | null; userId?: string | null },
  minutes: number,
  now: number,
): { signals: Signal[]; source: SourceRef; facts: Facts } {
  const n = (k: string) => Number(row[k] ?? 0);

  const signals: Signal[] = [];
  const counted = { ip: n("ip_sig"), email: a.email ? n("email_sig") : 0, device: a.deviceId ? n("device_sig") : 0 };
  for (const kind of ["ip", "email", "device"] as const) {
    const count = counted[kind];
    const tier = TIERS[kind].find((t) => count >= t.at);
    if (!tier) continue;
    signals.push({
      code: `velocity_${kind}`,
      weight: tier.weight,
      reason: `This ${LABEL[kind]} was assessed ${count} times in the last ${minutes} minutes: repeated attempts suggest automation, account takeover or card testing. Rate-limit or challenge it.`,
      evidence: ["workspace-events"],
    });
  }

  // A count for a key the request lacks is unknown, not zero.
  const facts: Record<string, number> = {};
  for (const w of ["1h", "24h", "7d"] as const) {
    facts[`velocity.ip_${w}`] = n(`ip_${w}`);
    facts[`velocity.ip_emails_${w}`] = n(`ip_emails_${w}`) + (a.email ? 1 : 0);
    if (a.email) facts[`velocity.email_${w}`] = n(`email_${w}`);
    if (a.deviceId) {
      facts[`velocity.device_${w}`] = n(`device_${w}`);
      facts[`velocity.device_users_${w}`] = n(`device_users_${w}`) + (a.userId ? 1 : 0);
    }
    if (a.userId) facts[`velocity.user_${w}`] = n(`user_${w}`);
  }
  return {
    signals,
    source: { name: "workspace-events", origin: "workspace", fetched_at: new Date(now).toISOString() },
    facts: facts as Facts,
  };
}
