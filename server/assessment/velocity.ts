// Velocity: how often the same IP, email, device or user was assessed in this workspace recently. Repeats in a short
// window are the mark of credential stuffing, sign-up farms and card testing. Only this workspace's events count.
// One query answers both the scored signals (the configured window) and the rule facts (1 h, 24 h, 7 d counts per
// key, distinct users per device and emails per IP), so an assessment pays for one statement, not fifteen; each key is
// reached through its own index (workspace, key, time), never by a scan of the workspace's recent events, and the
// address, the one key many people share, through its counters (its minutes and pairs), never its every event.
import { hotQuery, type Db } from "../db/client";
import type { Facts } from "../rules/facts";
import { SIGNALS } from "../scoring/signal-weights";
import { accountColumns, accountWhere, BASELINE_DAYS, SHARED_EGRESS_AT } from "./account";
import { velocityWindowMinutes } from "./config";
import type { IdentityKeys } from "./identity-keys";
import { IDENTITY_PARAM_TYPES, identityParams, identityParts } from "./identity-read";
import type { Signal, SourceRef } from "./schemas";

/** Earlier assessments at or above `at` add `weight`; the first tier reached (highest first) applies. */
const TIERS = {
  ip: SIGNALS.velocity_ip.tiers,
  email: SIGNALS.velocity_email.tiers,
  device: SIGNALS.velocity_device.tiers,
} as const;

// The email count is of the canonical mailbox (server/email/canonical.ts), other spellings of it included: the words say
// so without asking which spellings were counted (that would read every counted row from the table, not its index).
const LABEL = {
  ip: "IP address",
  email: "email address (with other spellings of its mailbox, such as dots or +tags)",
  device: "device",
} as const;
const WINDOW_MS = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 } as const;

type Row = Record<string, unknown>;

/** The request's keys, as the velocity statement reads them. */
export interface VelocityKeys {
  workspaceId: string;
  ip: string;
  email: string | null;
  deviceId: string | null;
  userId?: string | null;
  /** The account (server/assessment/account.ts): its baseline and failure counters are read here too. */
  subject?: string | null;
  /** Linked accounts and cards (./identity-read.ts): read here too. */
  identity?: IdentityKeys;
  now?: Date;
}

/**
 * The velocity statement's text for a set of extra columns. Each key's rows are read by a part of their own, through
 * that key's index (workspace, key, time), and each row is tested only by the columns of its own key: one statement of
 * single-row aggregates joined side by side, so a busy address is not also filtered by the account's, device's and
 * email's thirty-odd conditions per row. A key the request lacks (a NULL parameter) matches no row and answers zeros at
 * once. The text depends on nothing but `alsoRead`, so it is built once per set (see velocityStatement).
 */
function velocitySql(
  alsoRead: Record<string, string>,
  opaque: (param: string) => string = (p) => `(SELECT ${p}::text)`,
): string {
  // $1 workspace, $2 oldest, $3 ip, $4 email, $5 device, $6 the user's subject ("user:<user_id>"), $7 signal window,
  // $8 1h, $9 24h, $10 7d, $11 account, $12 baseline window (90 days), $13 30 days; the address's counters: $14 its
  // key ("ip:<address>"), $15 this request's email as a pair ("email:<address>"), $16 this account's failures as a
  // pair ("failed:<subject>"), $17 to $20 the first whole minute of the signal, 1 h, 24 h and 7 d windows, $21 the
  // oldest of them
  const windows = ["sig", "1h", "24h", "7d"] as const;
  const win = { sig: "$7", "1h": "$8", "24h": "$9", "7d": "$10" } as const;
  const minute = { sig: "$17", "1h": "$18", "24h": "$19", "7d": "$20" } as const;
  const ts = (p: string) => `${p}::timestamp(3)`;
  const since = (p: string) => `"createdAt" >= ${ts(p)}`;
  const recent = since("$2");
  // The workspace and the keys as values the planner cannot see (an InitPlan each, still an index condition): a plan
  // made for the values themselves follows the statistics, which may not know the workspace yet (the events'
  // statistics are refreshed when the table has doubled: server/db/statistics.ts). A workspace they have not seen is
  // estimated at one row, and its every key part then read the workspace's whole week through the time index,
  // filtering out thousands of rows per part (test/assessment/velocity-plan.test.ts). Unseen, they are costed by the
  // columns' distinct counts, where a key's index wins over the workspace's time index, as in the one generic plan
  // the hot statements keep (server/db/client.ts HOT_PLANS) and in a plan made for the values (a transaction's run
  // through Prisma).
  const workspace = `"workspaceId" = ${opaque("$1")}`;
  const events = (where: string, cols: string[]) =>
    `(SELECT ${cols.join(", ")} FROM "Event" WHERE "type" = 'assessment' AND ${workspace} AND ${where})`;
  const parts = {
    // The canonical mailbox (Event.emailNormalized): every spelling of one inbox is one email.
    email: { where: `"emailNormalized" = ${opaque("$4")} AND ${recent}`, cols: [] as string[] },
    device: { where: `"device" = ${opaque("$5")} AND ${recent}`, cols: [] as string[] },
    // The user's subject as a parameter of its own, like the account's: an expression over a parameter
    // ('user:' || the user_id) is not costed as a key, and the generic plan then read the workspace's whole week
    // through its time index, filtering by subject (test/assessment/velocity-plan.test.ts).
    user: { where: `"subject" = ${opaque("$6")} AND ${recent}`, cols: [] as string[] },
    account: { where: accountWhere(opaque("$11"), "$12::timestamp(3)"), cols: [] as string[] },
  };
  for (const w of windows) {
    parts.email.cols.push(`count(*) FILTER (WHERE ${since(win[w])}) AS "email_${w}"`);
    parts.device.cols.push(`count(*) FILTER (WHERE ${since(win[w])}) AS "device_${w}"`);
    if (w === "sig") continue;
    parts.user.cols.push(`count(*) FILTER (WHERE ${since(win[w])}) AS "user_${w}"`);
    // Other users by their subject ("user:<user_id>" exactly when the event named a user_id), not by the user_id in
    // `data`, which would decompress each row's JSON.
    parts.device.cols.push(
      `count(DISTINCT "subject") FILTER (WHERE ${since(win[w])} AND "subject" LIKE 'user:%' AND "subject" IS DISTINCT FROM $6::text) AS "device_users_${w}"`,
    );
  }
  const account = accountColumns({
    subject: "$11::text",
    device: "$5::text",
    hour: ts(win["1h"]),
    month: "$13::timestamp(3)",
  });
  parts.account.cols.push(...account.account);
  parts.device.cols.push(...account.device);
  const from = Object.entries(parts).map(([name, part]) => `${events(part.where, part.cols)} AS "${name}"`);

  // The address: a NAT, office or stuffing address has thousands of events a week, so it is read from its counters
  // (VelocityCount, VelocityPair in prisma/schema.prisma, kept by the assessment's write: ./record.ts). A window's
  // count is the sum of its whole minutes and the address's events in the part of a minute before them (at most a
  // minute's worth, read through the address's index); the distinct counts are the pairs last seen in the window.
  const ipKey = opaque("$14");
  from.push(
    `(SELECT ${[
      ...windows.map((w) => `sum("count") FILTER (WHERE "minute" >= ${ts(minute[w])}) AS "ip_minutes_${w}"`),
      `sum("failed") FILTER (WHERE "minute" >= ${ts(minute["1h"])}) AS "ip_minutes_failed_1h"`,
    ].join(
      ", ",
    )} FROM "VelocityCount" WHERE ${workspace} AND "key" = ${ipKey} AND "minute" >= ${ts("$21")}) AS "ip_minutes"`,
    ...windows.map(
      (w) =>
        `${events(`"ip" = ${opaque("$3")} AND "createdAt" >= ${ts(win[w])} AND "createdAt" < ${ts(minute[w])}`, [
          `count(*) AS "ip_edge_${w}"`,
          ...(w === "1h" ? [`count(*) FILTER (WHERE "failed") AS "ip_edge_failed_1h"`] : []),
        ])} AS "ip_edge_${w}"`,
    ),
    `(SELECT ${[
      ...windows
        .filter((w) => w !== "sig")
        .map(
          (w) =>
            `count(*) FILTER (WHERE "other" LIKE 'email:%' AND "lastAt" >= ${ts(win[w])} AND "other" IS DISTINCT FROM $15::text) AS "ip_emails_${w}"`,
        ),
      `count(*) FILTER (WHERE "other" LIKE 'failed:%' AND "lastAt" >= ${ts(win["1h"])} AND "other" IS DISTINCT FROM $16::text) AS "ip_failed_users_1h"`,
      // Shared egress: the other accounts and devices seen from the address (this request's own are added in
      // velocityFromRow).
      `count(*) FILTER (WHERE "other" LIKE 'failed:%' AND "lastAt" >= ${ts(win["24h"])} AND "other" IS DISTINCT FROM $16::text) AS "ip_failed_users_24h"`,
      // The accounts of the day labelled fraud there (their 'fraud:' pairs, kept by the labels: ./outcomes.ts), this
      // request's own account included: its label is of an earlier assessment.
      `count(*) FILTER (WHERE "other" LIKE 'fraud:%' AND "lastAt" >= ${ts(win["24h"])}) AS "ip_fraud_users_24h"`,
      ...(["24h", "7d"] as const).flatMap((w) => [
        `count(*) FILTER (WHERE "other" LIKE 'account:%' AND "lastAt" >= ${ts(win[w])} AND "other" IS DISTINCT FROM ('account:' || $11::text)) AS "ip_users_${w}"`,
        `count(*) FILTER (WHERE "other" LIKE 'device:%' AND "lastAt" >= ${ts(win[w])} AND "other" IS DISTINCT FROM ('device:' || $5::text)) AS "ip_devices_${w}"`,
      ]),
    ].join(
      ", ",
    )} FROM "VelocityPair" WHERE ${workspace} AND "key" = ${ipKey} AND "lastAt" >= ${ts(win["7d"])}) AS "ip_pairs"`,
  );
  // Linked accounts, cards and declines (./identity-read.ts): $22 onwards.
  const identity = identityParts({
    opaque,
    workspace,
    subject: "$11::text",
    hour: ts(win["1h"]),
    day: ts(win["24h"]),
    month: "$13::timestamp(3)",
  });
  from.push(...identity.from);
  const ipCols = [
    ...windows.map((w) => `coalesce("ip_minutes_${w}", 0) + "ip_edge_${w}" AS "ip_${w}"`),
    `coalesce("ip_minutes_failed_1h", 0) + "ip_edge_failed_1h" AS "ip_failed_1h"`,
    `"ip_pairs".*`,
  ];
  const keyCols = Object.keys(parts).map((name) => `"${name}".*`);
  const alsoCols = Object.entries(alsoRead).map(([name, sql]) => `${sql} AS "${name}"`);
  return `SELECT ${[...ipCols, ...keyCols, ...identity.cols, ...alsoCols].join(", ")} FROM ${from.join(", ")}`;
}

/**
 * The velocity read of one request as a correlated scalar subquery (a JSON object of the statement's columns), for a
 * statement that reads it beside other work: the reservation's (server/quota/reserve.ts), so an assessment pays one
 * round trip for both. `$1` stays the workspace; the other parameters are the values `velocityStatement` gives after
 * the workspace, read from `row` (an expression of a JSON array, e.g. `r."read"`). They are expressions of the
 * outer row, which the planner costs without their values; the workspace stays an InitPlan, as in the statement.
 */
export function velocityRowSql(row: string): string {
  const sql = velocitySql({}, (p) => (p === "$1" ? `(SELECT $1::text)` : `${p}::text`));
  // Each value is taken out of the array and cast once per request, in a subquery the planner keeps apart (OFFSET
  // 0): the counts' FILTER conditions would otherwise extract and parse a timestamp for every row they test.
  const values = PARAM_TYPES.map((type, i) => `(${row}->>${i})::${type} AS "p${i + 2}"`).join(", ");
  const refs = sql.replace(/\$(\d+)/g, (m, n: string) => (n === "1" ? m : `p."p${n}"`));
  return `(SELECT row_to_json(v) FROM (SELECT ${values} OFFSET 0) p, LATERAL (${refs}) v)`;
}

/** The types of the velocity statement's parameters after the workspace: $2, $3, ... (see velocitySql). */
const PARAM_TYPES = [
  "timestamp(3)", // $2 oldest
  "text", // $3 ip
  "text", // $4 email
  "text", // $5 device
  "text", // $6 the user's subject
  "timestamp(3)", // $7 signal window
  "timestamp(3)", // $8 1 h
  "timestamp(3)", // $9 24 h
  "timestamp(3)", // $10 7 d
  "text", // $11 account
  "timestamp(3)", // $12 baseline window
  "timestamp(3)", // $13 30 days
  "text", // $14 the address's counters' key
  "text", // $15 this request's email pair
  "text", // $16 this account's failure pair
  "timestamp(3)", // $17 first whole minute of the signal window
  "timestamp(3)", // $18 of 1 h
  "timestamp(3)", // $19 of 24 h
  "timestamp(3)", // $20 of 7 d
  "timestamp(3)", // $21 the oldest of them
  ...IDENTITY_PARAM_TYPES, // $22 onwards: ./identity-read.ts
] as const;

/** The first whole minute at or after `t`: counters hold whole minutes (VelocityCount's `minute` is its start). */
const wholeMinute = (t: Date) => new Date(Math.ceil(t.getTime() / 60_000) * 60_000);

/** The statement's text by its name (one per set of extra columns, which the name spells). */
const texts = new Map<string, string>();

/**
 * The velocity statement for these keys: its name (a named statement on PostgreSQL, planned generically after its
 * fifth run), its text (velocitySql, built once per name) and its parameters.
 */
export function velocityStatement(
  a: VelocityKeys,
  alsoRead: Record<string, string> = {},
): { name: string; sql: string; params: unknown[]; minutes: number; now: number } {
  const minutes = velocityWindowMinutes();
  const now = (a.now ?? new Date()).getTime();
  const at = (ms: number) => new Date(now - ms);
  const signalFrom = at(minutes * 60_000);
  const oldest = new Date(Math.min(signalFrom.getTime(), at(WINDOW_MS["7d"]).getTime()));
  const name = `service_velocity_${Object.keys(alsoRead).join("_")}`;
  let sql = texts.get(name);
  if (sql === undefined) texts.set(name, (sql = velocitySql(alsoRead)));
  return {
    name,
    sql,
    params: [
      a.workspaceId,
      oldest,
      a.ip,
      a.email,
      a.deviceId,
      a.userId ? `user:${a.userId}` : null,
      signalFrom,
      at(WINDOW_MS["1h"]),
      at(WINDOW_MS["24h"]),
      at(WINDOW_MS["7d"]),
      a.subject ?? null,
      at(BASELINE_DAYS * 86_400_000),
      at(30 * 86_400_000),
      a.ip ? `ip:${a.ip}` : null,
      a.email ? `email:${a.email}` : null,
      a.subject ? `failed:${a.subject}` : null,
      wholeMinute(signalFrom),
      wholeMinute(at(WINDOW_MS["1h"])),
      wholeMinute(at(WINDOW_MS["24h"])),
      wholeMinute(at(WINDOW_MS["7d"])),
      wholeMinute(oldest),
      ...identityParams(a.identity),
    ],
    minutes,
    now,
  };
}

/**
 * `alsoRead`: other scalar SQL expressions over the workspace ($1) to read in the same statement, by column name
 * (the assessment reads its enabled rules this way: one round trip instead of two); returned in `also`.
 */
export async function velocitySignals(
  db: Db,
  a: VelocityKeys,
  alsoRead: Record<string, string> = {},
): Promise<{
  signals: Signal[];
  source: SourceRef;
  facts: Facts;
  also: Record<string, unknown>;
  /** The account columns, for accountEvidence. */
  row: Row;
}> {
  const st = velocityStatement(a, alsoRead);
  const rows = await hotQuery<Row>(db, st.name, st.sql, st.params);
  const row = rows[0] ?? {};
  const also: Record<string, unknown> = {};
  for (const name of Object.keys(alsoRead)) also[name] = row[name];
  return { ...velocityFromRow(row, a, st.minutes, st.now), also, row };
}

/**
 * The signals and rule facts of the velocity statement's row of counts (the benchmark's bare reference builds the
 * same row from counts in memory).
 */
export function velocityFromRow(
  row: Row,
  a: { email: string | null; deviceId: string | null; userId?: string | null; subject?: string | null },
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
  // Shared egress (a NAT, an office, a proxy we have no list for): distinct accounts and devices of the address.
  const egress: Record<string, number | boolean> = {};
  for (const w of ["24h", "7d"] as const) {
    egress[`ip.users_${w}`] = n(`ip_users_${w}`) + (a.subject ? 1 : 0);
    egress[`ip.devices_${w}`] = n(`ip_devices_${w}`) + (a.deviceId ? 1 : 0);
  }
  egress["ip.shared_egress"] =
    (egress["ip.users_24h"] as number) >= SHARED_EGRESS_AT || (egress["ip.devices_24h"] as number) >= SHARED_EGRESS_AT;
  return {
    signals,
    source: { name: "workspace-events", origin: "workspace", fetched_at: new Date(now).toISOString() },
    facts: { ...facts, ...egress } as Facts,
  };
}
