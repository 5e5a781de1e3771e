// The bare reference for POST /assess: the service's own evidence gathering (IP, email) and its decide() (scoring,
// account baseline, failure counters, rules and lists), with the workspace's events, rules and lists held in memory
// instead of a store, and no authentication, quota, ledger or framework. The velocity and account counts come from
// an in-memory index per key, computed as the service's velocity statement computes them (server/assessment/
// velocity.ts and account.ts), so the reference does the same scoring work and only the store is missing. The
// address's pairs (accounts, devices, emails and failed accounts seen from it), the linked accounts' and cards' pairs
// and the decline counters (server/assessment/identity-read.ts, issue 45) are kept as the service's counters keep
// them (VelocityPair: key -> other -> last seen; VelocityCount: key -> minute -> count), written from what decide()
// gives the store, and read by the same keys the velocity statement is given (identityParams). The address, the one
// key many people share, is read as the service reads it, never by going through its every event: its counts by a
// binary search of its events in time order (the service sums its minute counters), its emails and failed accounts
// from its pairs. Before, the reference filtered the address's whole list on every request, so it slowed as a run
// went on (docs/benchmarks.md). test/assessment/reference.test.ts holds its rule facts to the service's.
import { gatherEmailEvidence } from "../server/assessment/email-evidence";
import { gatherIpEvidence } from "../server/assessment/ip-evidence";
import { decide, velocityKeysOf, type Gathered } from "../server/assessment/assess";
import { BASELINE_DAYS } from "../server/assessment/account";
import { velocityWindowMinutes } from "../server/assessment/config";
import { assessRequestSchema, type AssessResult } from "../server/assessment/schemas";
import { velocityFromRow } from "../server/assessment/velocity";
import { identityParams, NAMED_LINKS } from "../server/assessment/identity-read";
import { AppError } from "../server/errors";
import { newId } from "../server/ids";
import { indexLists, lookupOver, type ListRow } from "../server/lists/lookup";
import type { EnabledRule } from "../server/rules/rules";

interface Stored {
  at: number;
  ip: string | null;
  email: string | null;
  device: string | null;
  subject: string | null;
  userId: string | null;
  failed: boolean;
  login: boolean;
  country: string | null;
  asn: string | null;
  geo: [number, number] | null;
  hides: boolean;
}

/** One workspace of the reference: its events by key, its counters, its enabled rules and its lists' index. */
export interface ReferenceWorkspace {
  byKey: Map<string, Stored[]>;
  /** VelocityPair in memory: key -> other -> when last seen (ms). */
  pairs: Map<string, Map<string, number>>;
  /** VelocityCount's decline counters in memory: key -> minute's start (ms) -> count. */
  declines: Map<string, Map<number, number>>;
  rules: EnabledRule[];
  lists: ReturnType<typeof indexLists>;
}

/** A workspace with these rules and lists (a scenario's setup creates the same ones in the service). */
export function referenceWorkspace(c: { rules?: EnabledRule[]; lists?: ListRow[] } = {}): ReferenceWorkspace {
  return {
    byKey: new Map(),
    pairs: new Map(),
    declines: new Map(),
    rules: c.rules ?? [],
    lists: indexLists(c.lists ?? []),
  };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function eventsIn(byKey: Map<string, Stored[]>, kind: string, value: string | null | undefined): Stored[] {
  return value ? (byKey.get(`${kind}:${value}`) ?? []) : [];
}

/** How many of `list` (in time order, as stored) are at or after `since`. */
function countSince(list: Stored[], since: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.at < since) lo = mid + 1;
    else hi = mid;
  }
  return list.length - lo;
}

/** The row of counts the velocity statement returns, from the events in memory. */
function countsRow(
  byKey: Map<string, Stored[]>,
  k: { ip: string; email: string | null; device: string | null; userId: string | null; subject: string | null },
  now: number,
) {
  const eventsOf = (kind: string, value: string | null | undefined) => eventsIn(byKey, kind, value);
  const row: Record<string, unknown> = {};
  const ipEv = eventsOf("ip", k.ip);
  const emailEv = eventsOf("email", k.email);
  const deviceEv = eventsOf("device", k.device);
  const userEv = eventsOf("subject", k.userId ? `user:${k.userId}` : null);
  const windows = { sig: velocityWindowMinutes() * MINUTE, "1h": HOUR, "24h": DAY, "7d": 7 * DAY };
  for (const [w, ms] of Object.entries(windows)) {
    const since = now - ms;
    const recent = (list: Stored[]) => list.filter((e) => e.at >= since);
    // The address, the key many people share, is counted as the service counts it (its minute counters): here by a
    // binary search of its events in time order, never by reading them all.
    row[`ip_${w}`] = countSince(ipEv, since);
    row[`email_${w}`] = recent(emailEv).length;
    row[`device_${w}`] = recent(deviceEv).length;
    if (w === "sig") continue;
    row[`user_${w}`] = recent(userEv).length;
    row[`device_users_${w}`] = new Set(
      recent(deviceEv)
        .filter((e) => e.userId !== null && e.userId !== k.userId)
        .map((e) => e.userId),
    ).size;
  }
  const baseline = eventsOf("subject", k.subject).filter((e) => e.at >= now - BASELINE_DAYS * DAY);
  const ok = baseline.filter((e) => !e.failed);
  const month = ok.filter((e) => e.at >= now - 30 * DAY);
  const secs = (t: number) => t / 1000;
  // array_agg(DISTINCT ...) answers its values in order.
  const distinct = <T>(xs: (T | null)[]) => [...new Set(xs.filter((x): x is T => x !== null))].sort();
  row.acct_first = ok.length ? secs(Math.min(...ok.map((e) => e.at))) : null;
  row.acct_last_ok = ok.length ? secs(Math.max(...ok.map((e) => e.at))) : null;
  row.acct_30d = month.length;
  row.acct_countries = distinct(ok.map((e) => e.country));
  row.acct_countries_30d = distinct(month.map((e) => e.country));
  row.acct_asns = distinct(ok.map((e) => e.asn));
  row.acct_device_seen = ok.filter((e) => k.device !== null && e.device === k.device).length;
  row.acct_other_devices_30d = distinct(month.map((e) => e.device).filter((d) => d !== k.device)).length;
  const lastLogin = ok.filter((e) => e.login).sort((x, y) => y.at - x.at)[0];
  row.acct_last_login = lastLogin ? [secs(lastLogin.at), lastLogin.geo, lastLogin.country, lastLogin.hides] : null;
  const hour = now - HOUR;
  row.acct_failed_times = baseline.filter((e) => e.failed && e.at >= hour).map((e) => secs(e.at));
  const failedFrom = (list: Stored[]) => list.filter((e) => e.failed && e.at >= hour);
  row.ip_failed_1h = countSince(eventsOf("ipfailed", k.ip), hour);
  row.device_failed_users_1h = distinct(
    failedFrom(deviceEv).map((e) => (e.subject === k.subject ? null : e.subject)),
  ).length;
  return row;
}

/** The workspace id decide() is given. */
const WORKSPACE = "ws_reference";

const minuteOf = (t: number) => Math.floor(t / MINUTE) * MINUTE;

/**
 * The columns the velocity statement reads from the counters, from the counters in memory: the address's pairs
 * (accounts, devices and failed accounts seen from it) and the linked accounts', cards' and declines' parts
 * (server/assessment/identity-read.ts identityParts), by the keys the statement is given (identityParams).
 */
function countersRow(
  ws: ReferenceWorkspace,
  k: { ip: string; email: string | null; device: string | null; subject: string | null; params: (string | null)[] },
  now: number,
): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const hour = now - HOUR;
  const day = now - DAY;
  const month = now - 30 * DAY;
  /** A key's pairs seen at or after `since`, other than `except`: [other, last seen]. */
  const pairsOf = (key: string | null, since: number, except: string | null) =>
    key ? [...(ws.pairs.get(key) ?? [])].filter(([other, at]) => at >= since && other !== except) : [];
  const ipPairs = (prefix: string, since: number, except: string | null) =>
    pairsOf(`ip:${k.ip}`, since, except).filter(([other]) => other.startsWith(prefix)).length;
  const failedSelf = k.subject ? `failed:${k.subject}` : null;
  row.ip_failed_users_24h = ipPairs("failed:", day, failedSelf);
  row.ip_failed_users_1h = ipPairs("failed:", hour, failedSelf);
  // The emails seen from the address, by their pairs' last time, as the service reads them.
  for (const [w, since] of [
    ["1h", hour],
    ["24h", day],
    ["7d", now - 7 * DAY],
  ] as const)
    row[`ip_emails_${w}`] = ipPairs("email:", since, k.email ? `email:${k.email}` : null);
  // Labels (fraud:) are never given in the benchmark: no pair of that kind exists.
  row.ip_fraud_users_24h = ipPairs("fraud:", day, null);
  for (const [w, since] of [
    ["24h", day],
    ["7d", now - 7 * DAY],
  ] as const) {
    row[`ip_users_${w}`] = ipPairs("account:", since, k.subject ? `account:${k.subject}` : null);
    row[`ip_devices_${w}`] = ipPairs("device:", since, k.device ? `device:${k.device}` : null);
  }

  const [aDevice, aEmail, aPhone, aCard, cDevice, cIp, cAccount, card, dIp, dDevice, dCard] = k.params;
  const all = new Set<string>();
  for (const [kind, key] of [
    ["device", aDevice],
    ["email", aEmail],
    ["phone", aPhone],
    ["card", aCard],
  ] as const) {
    const found = pairsOf(key ?? null, month, k.subject).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
    row[`links_${kind}_n`] = found.length;
    row[`links_${kind}`] = found.length ? found.slice(0, NAMED_LINKS).map(([other]) => other) : null;
    for (const [other] of found) all.add(other);
  }
  row.links_n = all.size;
  row.cards_device_1h = pairsOf(cDevice ?? null, hour, card ?? null).length;
  row.cards_ip_1h = pairsOf(cIp ?? null, hour, card ?? null).length;
  row.cards_account_30d = pairsOf(cAccount ?? null, month, card ?? null).length;
  const declined = (key: string | null | undefined, since: number) => {
    let sum = 0;
    for (const [minute, count] of (key ? ws.declines.get(key) : undefined) ?? []) if (minute >= since) sum += count;
    return sum;
  };
  row.declines_ip_1h = declined(dIp, minuteOf(hour));
  row.declines_device_1h = declined(dDevice, minuteOf(hour));
  row.declines_card_24h = declined(dCard, minuteOf(day));
  return row;
}

/** What the assessment's write adds to the counters (server/assessment/record.ts): pairs and decline minutes. */
function count(
  ws: ReferenceWorkspace,
  at: number,
  e: { ip: string | null; emailNormalized: string | null; subject: string | null; device: string | null },
  failed: boolean,
  identity: { pairs: [string, string][]; declines: string[] } | undefined,
): void {
  const pairs: [string, string | null][] = [...(identity?.pairs ?? [])];
  if (e.ip) {
    const ipKey = `ip:${e.ip}`;
    pairs.push(
      [ipKey, e.emailNormalized && `email:${e.emailNormalized}`],
      [ipKey, failed && e.subject ? `failed:${e.subject}` : null],
      [ipKey, e.subject && `account:${e.subject}`],
      [ipKey, e.device && `device:${e.device}`],
    );
  }
  for (const [key, other] of pairs) {
    if (!other) continue;
    let of = ws.pairs.get(key);
    if (!of) ws.pairs.set(key, (of = new Map()));
    of.set(other, Math.max(of.get(other) ?? 0, at));
  }
  for (const key of identity?.declines ?? []) {
    let of = ws.declines.get(key);
    if (!of) ws.declines.set(key, (of = new Map()));
    of.set(minuteOf(at), (of.get(minuteOf(at)) ?? 0) + 1);
  }
}

function store(byKey: Map<string, Stored[]>, e: Stored): void {
  for (const [kind, value] of [
    ["ip", e.ip],
    ["email", e.email],
    ["device", e.device],
    ["subject", e.subject],
    // The address's failed attempts, for their hour's count (countsRow).
    ["ipfailed", e.failed ? e.ip : null],
  ] as const) {
    if (!value) continue;
    const key = `${kind}:${value}`;
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = []));
    list.push(e);
  }
}

/** POST /assess of the reference: the same answer as the service's, from memory. */
export async function referenceAssess(
  ws: ReferenceWorkspace,
  body: unknown,
  /** Given the facts as the rules saw them (what the service stores with the event), for tests. */
  out?: { facts?: Record<string, unknown> },
): Promise<AssessResult> {
  const parsed = assessRequestSchema.safeParse(body);
  if (!parsed.success) throw new AppError("INVALID_REQUEST", parsed.error.issues[0]?.message ?? "Invalid request.");
  const req = parsed.data;
  const now = Date.now();
  // As the service: velocity and the account key on the canonical mailbox, the evidence reads the address as sent;
  // the keys (and the phone number's parse) are the service's own, made once for the request and reused by decide().
  const emailAddress = req.email?.trim().toLowerCase() ?? null;
  const vk = velocityKeysOf(WORKSPACE, req);
  const { ip, email } = vk;
  const subject = vk.subject ?? null;
  const keys = { ip, email, device: vk.deviceId, userId: vk.userId ?? null };
  const [ipEv, emailEv] = await Promise.all([
    gatherIpEvidence(req),
    emailAddress ? gatherEmailEvidence(emailAddress) : null,
  ]);
  // The linked accounts' and cards' keys as the service gives them to its velocity statement.
  const row = {
    ...countsRow(ws.byKey, { ...keys, subject }, now),
    ...countersRow(ws, { ip, email, device: keys.device, subject, params: identityParams(vk.identity) }, now),
  };
  const g: Gathered = {
    ip: ipEv,
    email: emailEv,
    velocity: {
      ...velocityFromRow(
        row,
        { email, deviceId: keys.device, userId: keys.userId, subject },
        velocityWindowMinutes(),
        now,
      ),
      row,
    },
    device: { signals: [], device: null, source: null, timezoneMismatch: null, languageMismatch: null },
    weights: { set: "default", learned: null },
    rules: ws.rules,
    // The bench's workspaces have no webhooks, and the reference stores nothing.
    notified: false,
    lists: ws.rules.some((r) => r.expression?.includes("in_list")) ? lookupOver(ws.lists, now) : undefined,
  };
  const d = decide({ workspaceId: WORKSPACE, requestId: newId("req"), request: req }, g, now);
  const data = d.write.event.data as {
    status?: string;
    event: string;
    facts: Record<string, unknown>;
    geo?: [number, number];
    hides_location?: boolean;
  };
  if (out) out.facts = data.facts;
  const ev = d.write.event;
  count(
    ws,
    now,
    {
      ip: ev.ip ?? null,
      emailNormalized: ev.email ? (ev.emailNormalized ?? ev.email.toLowerCase()) : null,
      subject: ev.subject ?? null,
      device: ev.device ?? null,
    },
    ev.account?.failed ?? false,
    d.write.identity,
  );
  store(ws.byKey, {
    at: now,
    ip: d.write.event.ip ?? null,
    email: d.write.event.emailNormalized ?? null,
    device: d.write.event.device ?? null,
    subject: d.write.event.subject ?? null,
    userId: req.user_id ?? null,
    failed: data.status === "failed",
    login: data.event === "login",
    country: (data.facts["ip.country"] as string | undefined) ?? null,
    asn: data.facts["ip.asn"] === undefined ? null : String(data.facts["ip.asn"]),
    geo: data.geo ?? null,
    hides: data.hides_location === true,
  });
  return d.result;
}
