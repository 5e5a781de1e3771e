// The bare reference for POST /assess: the service's own evidence gathering (IP, email) and its decide() (scoring,
// account baseline, failure counters, rules and lists), with the workspace's events, rules and lists held in memory
// instead of a store, and no authentication, quota, ledger or framework. The velocity and account counts come from
// an in-memory index per key, computed as the service's velocity statement computes them (server/assessment/
// velocity.ts and account.ts), so the reference does the same scoring work and only the store is missing.
import { gatherEmailEvidence } from "../server/assessment/email-evidence";
import { canonicalEmail } from "../server/email/canonical";
import { gatherIpEvidence } from "../server/assessment/ip-evidence";
import { decide, type Gathered } from "../server/assessment/assess";
import { accountSubject, BASELINE_DAYS } from "../server/assessment/account";
import { velocityWindowMinutes } from "../server/assessment/config";
import { assessRequestSchema, type AssessResult } from "../server/assessment/schemas";
import { velocityFromRow } from "../server/assessment/velocity";
import { AppError } from "../server/errors";
import { newId } from "../server/ids";
import { indexLists, lookupOver, type ListRow } from "../server/lists/lookup";
import { parseIpStrict } from "../server/net/ip";
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

/** One workspace of the reference: its events by key, its enabled rules and its lists' index. */
export interface ReferenceWorkspace {
  byKey: Map<string, Stored[]>;
  rules: EnabledRule[];
  lists: ReturnType<typeof indexLists>;
}

/** A workspace with these rules and lists (a scenario's setup creates the same ones in the service). */
export function referenceWorkspace(c: { rules?: EnabledRule[]; lists?: ListRow[] } = {}): ReferenceWorkspace {
  return { byKey: new Map(), rules: c.rules ?? [], lists: indexLists(c.lists ?? []) };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function eventsIn(byKey: Map<string, Stored[]>, kind: string, value: string | null | undefined): Stored[] {
  return value ? (byKey.get(`${kind}:${value}`) ?? []) : [];
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
    row[`ip_${w}`] = recent(ipEv).length;
    row[`email_${w}`] = recent(emailEv).length;
    row[`device_${w}`] = recent(deviceEv).length;
    if (w === "sig") continue;
    row[`user_${w}`] = recent(userEv).length;
    row[`device_users_${w}`] = new Set(
      recent(deviceEv)
        .filter((e) => e.userId !== null && e.userId !== k.userId)
        .map((e) => e.userId),
    ).size;
    row[`ip_emails_${w}`] = new Set(
      recent(ipEv)
        .filter((e) => e.email !== null && e.email !== k.email)
        .map((e) => e.email),
    ).size;
  }
  const baseline = eventsOf("subject", k.subject).filter((e) => e.at >= now - BASELINE_DAYS * DAY);
  const ok = baseline.filter((e) => !e.failed);
  const month = ok.filter((e) => e.at >= now - 30 * DAY);
  const secs = (t: number) => t / 1000;
  const distinct = <T>(xs: (T | null)[]) => [...new Set(xs.filter((x): x is T => x !== null))];
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
  row.ip_failed_1h = failedFrom(ipEv).length;
  row.ip_failed_users_1h = distinct(failedFrom(ipEv).map((e) => (e.subject === k.subject ? null : e.subject))).length;
  row.device_failed_users_1h = distinct(
    failedFrom(deviceEv).map((e) => (e.subject === k.subject ? null : e.subject)),
  ).length;
  return row;
}

function store(byKey: Map<string, Stored[]>, e: Stored): void {
  for (const [kind, value] of [
    ["ip", e.ip],
    ["email", e.email],
    ["device", e.device],
    ["subject", e.subject],
  ] as const) {
    if (!value) continue;
    const key = `${kind}:${value}`;
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = []));
    list.push(e);
  }
}

/** POST /assess of the reference: the same answer as the service's, from memory. */
export async function referenceAssess(ws: ReferenceWorkspace, body: unknown): Promise<AssessResult> {
  const parsed = assessRequestSchema.safeParse(body);
  if (!parsed.success) throw new AppError("INVALID_REQUEST", parsed.error.issues[0]?.message ?? "Invalid request.");
  const req = parsed.data;
  const now = Date.now();
  // As the service: velocity and the account key on the canonical mailbox, the evidence reads the address as sent.
  const emailAddress = req.email?.trim().toLowerCase() ?? null;
  const email = req.email ? canonicalEmail(req.email).normalized : null;
  const ip = parseIpStrict(req.ip)?.address ?? req.ip;
  const keys = { ip, email, device: req.device_id ?? null, userId: req.user_id ?? null };
  const subject = accountSubject(req.user_id, email);
  const [ipEv, emailEv] = await Promise.all([
    gatherIpEvidence(req),
    emailAddress ? gatherEmailEvidence(emailAddress) : null,
  ]);
  const row = countsRow(ws.byKey, { ...keys, subject }, now);
  const g: Gathered = {
    ip: ipEv,
    email: emailEv,
    velocity: {
      ...velocityFromRow(row, { email, deviceId: keys.device, userId: keys.userId }, velocityWindowMinutes(), now),
      row,
    },
    device: { signals: [], device: null, source: null, timezoneMismatch: null, languageMismatch: null },
    weights: { set: "default", learned: null },
    rules: ws.rules,
    lists: ws.rules.some((r) => r.expression?.includes("in_list")) ? lookupOver(ws.lists, now) : undefined,
  };
  const d = decide({ workspaceId: "ws_reference", requestId: newId("req"), request: req }, g, now);
  const data = d.write.event.data as {
    status?: string;
    event: string;
    facts: Record<string, unknown>;
    geo?: [number, number];
    hides_location?: boolean;
  };
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
