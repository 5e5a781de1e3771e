// The linked-account and card counts of an assessment (issue 45, items 2 and 4), read as two more parts of the
// velocity statement (./velocity.ts), so /assess still pays one round trip: the pairs of the request's identifiers
// (accounts per device, mailbox, phone number and card in 30 days; cards per device and address in the hour and per
// account in 30 days) and the decline counters' minutes (per address and device in the hour, per card in 24 hours).
// Every key is a parameter of its own, reached through the counters' primary key (workspace, key, ...).
import { accountsKeyOf, type IdentityKeys } from "./identity-keys";

/** The parameters after the velocity statement's own ($1 to $21), in order, with their types. */
const PARAMS = [
  ["accounts_device", "text"],
  ["accounts_email", "text"],
  ["accounts_phone", "text"],
  ["accounts_card", "text"],
  ["cards_device", "text"],
  ["cards_ip", "text"],
  ["cards_account", "text"],
  ["card", "text"],
  ["declines_ip", "text"],
  ["declines_device", "text"],
  ["declines_card", "text"],
] as const;
const FIRST = 22;
type ParamName = (typeof PARAMS)[number][0];
const p = Object.fromEntries(PARAMS.map(([name], i) => [name, `$${FIRST + i}`])) as Record<ParamName, string>;

/** The types of the parameters this module adds, after the velocity statement's. */
export const IDENTITY_PARAM_TYPES = PARAMS.map(([, type]) => type);

/** The values of the parameters this module adds, in order. */
export function identityParams(k: IdentityKeys | undefined): (string | null)[] {
  const id = k?.identifiers ?? {};
  const accounts = (x: string | undefined) => (x ? accountsKeyOf(x) : null);
  const card = k?.card ?? null;
  const values: Record<ParamName, string | null> = {
    accounts_device: accounts(id.device),
    accounts_email: accounts(id.email),
    accounts_phone: accounts(id.phone),
    accounts_card: accounts(id.card),
    cards_device: card && id.device ? `cards:${id.device}` : null,
    cards_ip: card && k?.ip ? `cards:ip:${k.ip}` : null,
    cards_account: card && k?.subject ? `cards:${k.subject}` : null,
    card,
    declines_ip: card && k?.ip ? `declines:ip:${k.ip}` : null,
    declines_device: card && id.device ? `declines:${id.device}` : null,
    declines_card: card ? `declines:card:${card}` : null,
  };
  return PARAMS.map(([name]) => values[name]);
}

/** At most this many linked accounts are named per kind (the counts are exact). */
export const NAMED_LINKS = 5;

/**
 * The two parts' FROM entries and their columns. `opaque` is the velocity statement's (a parameter the planner
 * cannot see, still an index condition); `subject` the account's parameter, `hour`, `day`, `month` the lower bounds
 * of the last hour, 24 hours and 30 days, `workspace` the workspace's condition.
 */
export function identityParts(a: {
  opaque: (param: string) => string;
  workspace: string;
  subject: string;
  hour: string;
  day: string;
  month: string;
}): { from: string[]; cols: string[] } {
  const others = `"other" IS DISTINCT FROM ${a.subject}`;
  const linkKeys = [p.accounts_device, p.accounts_email, p.accounts_phone, p.accounts_card];
  const kinds = { device: p.accounts_device, email: p.accounts_email, phone: p.accounts_phone, card: p.accounts_card };
  const pairCols = [
    ...Object.entries(kinds).flatMap(([kind, param]) => [
      `count(*) FILTER (WHERE "key" = ${param}::text AND ${others}) AS "links_${kind}_n"`,
      `(array_agg("other" ORDER BY "lastAt" DESC, "other") FILTER (WHERE "key" = ${param}::text AND ${others}))[1:${NAMED_LINKS}] AS "links_${kind}"`,
    ]),
    `count(DISTINCT "other") FILTER (WHERE "key" IN (${linkKeys.map((k) => `${k}::text`).join(", ")}) AND ${others}) AS "links_n"`,
    `count(*) FILTER (WHERE "key" = ${p.cards_device}::text AND "lastAt" >= ${a.hour} AND "other" IS DISTINCT FROM ${p.card}::text) AS "cards_device_1h"`,
    `count(*) FILTER (WHERE "key" = ${p.cards_ip}::text AND "lastAt" >= ${a.hour} AND "other" IS DISTINCT FROM ${p.card}::text) AS "cards_ip_1h"`,
    `count(*) FILTER (WHERE "key" = ${p.cards_account}::text AND "other" IS DISTINCT FROM ${p.card}::text) AS "cards_account_30d"`,
  ];
  // One branch per key, each an equality on the key: a list of keys (key IN (...)) was planned generically as a
  // scan of the workspace's every pair, filtered by key (test/assessment/velocity-plan.test.ts on PostgreSQL).
  const each = (table: string, keys: string[], cols: string, since: string) =>
    keys
      .map((k) => `SELECT ${cols} FROM "${table}" WHERE ${a.workspace} AND "key" = ${a.opaque(k)} AND ${since}`)
      .join(" UNION ALL ");
  const pairs = each(
    "VelocityPair",
    [...linkKeys, p.cards_device, p.cards_ip, p.cards_account],
    `"key", "other", "lastAt"`,
    `"lastAt" >= ${a.month}`,
  );
  // Declines by whole minutes: the minute the window starts in counts whole (at most a minute more, never less).
  const minuteOf = (t: string) => `date_trunc('minute', ${t})`;
  const declineCols = [
    `sum("count") FILTER (WHERE "key" = ${p.declines_ip}::text AND "minute" >= ${minuteOf(a.hour)}) AS "declines_ip_1h"`,
    `sum("count") FILTER (WHERE "key" = ${p.declines_device}::text AND "minute" >= ${minuteOf(a.hour)}) AS "declines_device_1h"`,
    `sum("count") FILTER (WHERE "key" = ${p.declines_card}::text) AS "declines_card_24h"`,
  ];
  const declines = each(
    "VelocityCount",
    [p.declines_ip, p.declines_device, p.declines_card],
    `"key", "minute", "count"`,
    `"minute" >= ${minuteOf(a.day)}`,
  );
  return {
    from: [
      `(SELECT ${pairCols.join(", ")} FROM (${pairs}) AS "identity_pair_rows") AS "identity_pairs"`,
      `(SELECT ${declineCols.join(", ")} FROM (${declines}) AS "identity_decline_rows") AS "identity_declines"`,
    ],
    cols: [`"identity_pairs".*`, `"identity_declines".*`],
  };
}
