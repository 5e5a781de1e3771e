// POST /assess: gathers evidence (IP, geolocation, email, user agent, velocity, account history, amount) in parallel
// and offline first, then decides (decide(): scoring and the workspace's rules, no I/O), then stores the
// investigation event with its high-risk deliveries and review case in one statement (./record.ts). The webhook is
// only queued here: delivery happens elsewhere and never blocks the answer.
import { hotParams, type Db } from "../db/client";
import type { EventInput } from "../events/events";
import { canonicalEmail } from "../email/canonical";
import { lookupGeo } from "../geo/lookup";
import { parseIpStrict } from "../net/ip";
import type { PhoneRead } from "./phone-evidence";
import { enabledRulesFrom, enabledRulesSql, type EnabledRule } from "../rules/rules";
import { evaluateRules } from "../rules/evaluate";
import { listLookup, versionTokenSql, type ListLookup } from "../lists/lookup";
import { HIGH_RISK_ASSESSMENT, subscribedSql } from "../webhooks/enqueue";
import { accountColumnsOf, accountEventData, accountEvidence, accountSubject } from "./account";
import { amountSignals } from "./amount";
import { opensCase } from "./open-case";
import { deviceIdOf } from "../device/observations";
import { gatherDeviceEvidence } from "./device-evidence";
import { gatherEmailEvidence } from "./email-evidence";
import { assessmentFacts } from "./facts";
import { gatherIpEvidence } from "./ip-evidence";
import { phoneEvidence } from "./phone-evidence";
import { identityEvidence } from "./identity-evidence";
import { identityKeysOf, pairsOf, readPhone } from "./identity-keys";
import { recordAssessment, type AssessmentWrite } from "./record";
import { weightsInUse } from "../weights/in-use";
import { bandOf, scoreOf, weighSignals } from "../scoring/score";
import type { AssessRequest, AssessResult, Decision, Signal, SourceRef } from "./schemas";
import { userAgentSignals } from "./user-agent";
import { velocityFromRow, velocityRowSql, velocitySignals, velocityStatement, type VelocityKeys } from "./velocity";
import type { ReadAlongside, ReadResult } from "../quota/reserve";

/** Everything an assessment's decision stands on, gathered from the evidence sources and the workspace's store. */
export interface Gathered {
  ip: Awaited<ReturnType<typeof gatherIpEvidence>>;
  email: Awaited<ReturnType<typeof gatherEmailEvidence>> | null;
  velocity: Pick<Awaited<ReturnType<typeof velocitySignals>>, "signals" | "facts" | "source" | "row">;
  device: Awaited<ReturnType<typeof gatherDeviceEvidence>>;
  weights: Awaited<ReturnType<typeof weightsInUse>>;
  rules: EnabledRule[];
  lists: ListLookup | undefined;
  /** Whether a webhook of the workspace took high-risk notifications when the velocity was read (ALSO_READ). */
  notified: boolean;
}

/**
 * What the velocity statement reads besides the counts: the workspace's enabled rules, its lists' version, and
 * whether any of its webhooks takes high-risk notifications (when none does, the write leaves out the answer's copy
 * for the notification). The read comes with the reservation, before the evidence is gathered: a webhook that starts
 * taking them while an assessment is under way (its DNS lookups included) gets the next one, not that one.
 */
const ALSO_READ = {
  rules: enabledRulesSql("$1"),
  lists: versionTokenSql("$1"),
  notified: subscribedSql("$1", HIGH_RISK_ASSESSMENT),
};

/**
 * The velocity read as the reservation's statement runs it for POST /assess's `readAlongside` (server/quota/reserve.ts
 * ReadAlongside): the same counts, rules and lists' version, in the round trip the reservation makes anyway.
 */
const VELOCITY_ALONGSIDE: ReadAlongside = { name: "velocity", row: velocityRowSql(`r."read"`), also: ALSO_READ };

/**
 * The read an assessment of `request` gives the reservation to run alongside, and `velocity`, what assess() then
 * takes with the reservation's result (`pre`).
 */
export function velocityAlongside(
  workspaceId: string,
  request: AssessRequest,
): { read: { with: ReadAlongside; values: unknown[] }; velocity: (pre: ReadResult) => PreRead } {
  const st = velocityStatement(velocityKeysOf(workspaceId, request));
  // As hotQuery passes them; the workspace ($1) is the reservation's own.
  const values = hotParams(st.params.slice(1));
  return {
    read: { with: VELOCITY_ALONGSIDE, values },
    velocity: (pre) => ({ ...pre, minutes: st.minutes, now: st.now }),
  };
}

/** A velocity row read before assess() ran (velocityAlongside), with the window and time it was read for. */
export type PreRead = ReadResult & { minutes: number; now: number };

export async function assess(
  db: Db,
  a: { workspaceId: string; requestId: string; request: AssessRequest; velocity?: PreRead },
): Promise<AssessResult> {
  const g = await gather(db, a.workspaceId, a.request, a.velocity);
  const d = decide(a, g);
  await recordAssessment(db, d.write);
  return d.result;
}

/** A request's keys and its phone number's parse, made once per request (see velocityKeysOf). */
const keysOfRequest = new WeakMap<AssessRequest, { keys: VelocityKeys; phone: PhoneRead | null }>();

/**
 * The velocity statement's keys of a request, with its phone number as the keys read it. Made once per request
 * object: velocityAlongside, gather and decide all ask, and a phone number's parse alone costs about a tenth of a
 * millisecond (issue 45, item 7).
 */
export function velocityKeysOf(
  workspaceId: string,
  req: AssessRequest,
): VelocityKeys & { phoneRead: PhoneRead | null } {
  const known = keysOfRequest.get(req);
  if (known && known.keys.workspaceId === workspaceId) return { ...known.keys, phoneRead: known.phone };
  // Velocity and the account key on the canonical mailbox (Event.emailNormalized): five spellings of one inbox are one.
  const email = req.email ? canonicalEmail(req.email).normalized : null;
  // Velocity counts by the canonical address events are recorded under; the input may spell IPv6 differently.
  const parsedIp = parseIpStrict(req.ip);
  const ip = parsedIp?.address ?? req.ip;
  const subject = accountSubject(req.user_id, email);
  const deviceId = req.device_id ?? null;
  // The device that links accounts: the caller's device_id, else the one /device.js's visitor_id names (the device
  // evidence's device_id), so accounts on one browser are linked whichever way it was identified.
  const linkDevice = deviceId ?? (req.device ? deviceIdOf(req.device.visitor_id) : null);
  // A national number without phone_country is read in the IP address's country, as the answer reads it
  // (./phone-evidence.ts), so it links to its E.164 spelling; the embedded geolocation answers without I/O.
  const national = req.phone !== undefined && !req.phone.trim().startsWith("+") && !req.phone_country;
  const phoneIn = national && parsedIp ? (lookupGeo(ip).country?.code ?? undefined) : req.phone_country;
  const phone = readPhone(req.phone, phoneIn);
  const keys: VelocityKeys = {
    workspaceId,
    ip,
    email,
    deviceId,
    userId: req.user_id ?? null,
    subject,
    identity: identityKeysOf({
      subject,
      ip,
      email,
      deviceId: linkDevice,
      phone: phone.key,
      payment: req.payment,
      failed: req.status === "failed",
    }),
  };
  const phoneRead = phone.parsed && { parsed: phone.parsed, readIn: phoneIn ?? null };
  keysOfRequest.set(req, { keys, phone: phoneRead });
  return { ...keys, phoneRead };
}

async function gather(db: Db, workspaceId: string, req: AssessRequest, pre?: PreRead): Promise<Gathered> {
  const keys = velocityKeysOf(workspaceId, req);
  // The address as sent (lower case) is what the email evidence reads and the event stores; keys.email is its mailbox.
  const emailAddress = req.email?.trim().toLowerCase() ?? null;
  const ip = keys.ip;
  // The workspace's enabled rules are read in the velocity statement: one round trip for both, and never stale.
  const [ipEv, emailEv, v, dev, weights] = await Promise.all([
    gatherIpEvidence(req),
    emailAddress ? gatherEmailEvidence(emailAddress) : null,
    pre
      ? { ...velocityFromRow(pre.row, keys, pre.minutes, pre.now), also: pre.also, row: pre.row }
      : velocitySignals(db, keys, ALSO_READ),
    gatherDeviceEvidence(db, { workspaceId, device: req.device, ip, email: emailAddress, userId: req.user_id ?? null }),
    weightsInUse(db, workspaceId),
  ]);
  const rules = enabledRulesFrom(v.also.rules);
  // The lists' index is rebuilt only when their version token (read above) moved and a rule uses in_list.
  const lists = rules.some((r) => r.expression?.includes("in_list"))
    ? await listLookup(db, workspaceId, v.also.lists)
    : undefined;
  const notified = v.also.notified !== false;
  return { ip: ipEv, email: emailEv, velocity: v, device: dev, weights, rules, lists, notified };
}

/**
 * The assessment's answer and what it stores, from its gathered evidence: no I/O, so the benchmark's bare reference
 * (bench/reference-assess.ts) runs exactly this scoring.
 */
export function decide(
  a: { workspaceId: string; requestId: string; request: AssessRequest },
  g: Gathered,
  now = Date.now(),
): { result: AssessResult; write: AssessmentWrite } {
  const req = a.request;
  const { ip: ipEv, email: emailEv, velocity: v, device: dev, weights } = g;
  const keys = velocityKeysOf(a.workspaceId, req);
  const subject = keys.subject ?? null;
  const acct = accountEvidence({ row: v.row, subject, request: req, ip: ipEv, now });
  const ph = phoneEvidence(req, ipEv.ip.country, keys.phoneRead);
  const idn = identityEvidence({ row: v.row, keys: keys.identity!, payment: req.payment, event: req.event });
  // Evidence is weighed with the defaults; a workspace on learned weights re-weighs it here, before the signals
  // that moved nothing are dropped, so every listed signal carries the weight actually used.
  const gathered: Signal[] = [
    ...ipEv.signals,
    ...(emailEv?.signals ?? []),
    ...userAgentSignals(req),
    ...v.signals,
    ...acct.signals,
    ...amountSignals(req),
    ...dev.signals,
    ...ph.signals,
    ...idn.signals,
  ];
  const weighed = weighSignals(gathered, req.event, weights.learned);
  // A code whose learned weight is 0 moved nothing, but the next fit must still see that it fired.
  const unscored = weights.learned ? weighed.filter((s) => s.weight === 0).map((s) => s.code) : [];
  const signals: Signal[] = weighed
    .filter((s) => s.weight !== 0)
    .sort((x, y) => y.weight - x.weight || x.code.localeCompare(y.code));
  const score = scoreOf(signals);
  const band = bandOf(score);

  const facts = assessmentFacts({
    request: req,
    ip: ipEv,
    email: emailEv,
    phone: ph.phone,
    device: dev,
    velocity: { ...v.facts, ...acct.facts, ...idn.facts },
    score,
    riskLevel: band.level,
    signals,
  });
  // Shadow rules are evaluated like active ones but only reported; a rule that fails is reported and skipped.
  const outcome = evaluateRules(g.rules, facts, { lists: g.lists });
  const brief = (r: { id: string; name: string; action: string }) => ({
    id: r.id,
    name: r.name,
    action: r.action as Decision,
  });
  const matched = outcome.matched.map(brief);
  const shadow = outcome.shadow.map(brief);
  const ruleErrors = outcome.errors.map((e) => ({ id: e.rule.id, name: e.rule.name, message: e.message }));
  const decision = matched[0]?.action ?? band.decision;

  const result: AssessResult = {
    request_id: a.requestId,
    event: req.event,
    score,
    risk_level: band.level,
    decision,
    decided_by: matched.length ? "rule" : "score",
    weights: weights.set,
    signals,
    rules: matched,
    shadow_rules: shadow,
    rule_errors: ruleErrors,
    ip: ipEv.ip,
    email: emailEv?.email ?? null,
    phone: ph.phone,
    device: dev.device,
    account: acct.account,
    linked_accounts: idn.linked,
    payment: idn.payment,
    sources: dedupe([
      ...ipEv.sources,
      ...(emailEv?.sources ?? []),
      v.source,
      ...(dev.source ? [dev.source] : []),
      ...(ph.source ? [ph.source] : []),
    ]),
    checked_at: new Date().toISOString(),
  };

  const account = accountColumnsOf(req, ipEv);
  const event: EventInput = {
    workspaceId: a.workspaceId,
    requestId: a.requestId,
    type: "assessment",
    ip: ipEv.ip.address,
    email: emailEv?.email.address ?? null,
    emailNormalized: emailEv ? canonicalEmail(emailEv.email.address).normalized : null,
    domain: emailEv?.email.domain ?? null,
    rule: matched[0]?.id ?? null,
    subject,
    device: req.device_id ?? null,
    account,
    data: {
      event: req.event,
      ...accountEventData(account),
      score,
      risk_level: band.level,
      decision,
      signals: signals.map((s) => ({ code: s.code, weight: s.weight })),
      // Absent means the default weights (events recorded before learned weights existed say nothing).
      ...(weights.set === "learned" ? { weights: "learned" } : {}),
      ...(unscored.length ? { unscored_signals: unscored } : {}),
      rules: matched.map((r) => r.id),
      shadow_rules: shadow.map((r) => ({ id: r.id, action: r.action })),
      ...(ruleErrors.length ? { rule_errors: ruleErrors.map((e) => ({ id: e.id, message: e.message })) } : {}),
      // What a backtest evaluates later: the facts as the rules saw them.
      facts,
      ...(req.device_id ? { device_id: req.device_id } : {}),
      ...(req.user_id ? { user_id: req.user_id } : {}),
      // BIN, last four and what they told: never more of the card (./payment.ts).
      ...(idn.payment ? { payment: idn.payment } : {}),
    },
  };
  return {
    result,
    write: {
      event,
      identity: pairsOf(keys.identity!),
      // High and critical assessments notify the workspace's webhooks; the answer is the notification's data.
      highRisk: (band.level === "high" || band.level === "critical") && g.notified ? result : null,
      // A review or challenge decision opens a case for a person, stored with the event.
      reviewCase: opensCase(decision)
        ? {
            decision,
            score,
            rule: matched[0]?.id ?? null,
            subject,
            ip: ipEv.ip.address,
            deviceId: req.device_id ?? null,
          }
        : null,
    },
  };
}

function dedupe(sources: SourceRef[]): SourceRef[] {
  const seen = new Map<string, SourceRef>();
  for (const s of sources) if (!seen.has(s.name)) seen.set(s.name, s);
  return [...seen.values()];
}
