// Charging in one place: what a request costs, when it is free, and when its units are given back, for every
// procedure (a file each under server/api/routers/), every bulk job item and every monitor run. The ladder
// (server/api/ladder.ts) asks this module how many units to reserve (unitsOf), the OpenAPI document, /docs and the
// console read each operation's cost from it (applyCharging writes it into the procedures' meta as the router is
// built), and test/metering/charging.test.ts fails for a procedure without an entry in CHARGING.
//
// What it costs: CHARGING below, by procedure path. A metered lookup reserves its units atomically, all or nothing,
// after every check that can refuse it (402 QUOTA_EXCEEDED when the allowance has not that many left); a bulk job
// reserves the sum of its items' units when it starts (bulkItemUnits: each its procedure's); a monitor run reserves
// one unit per check (monitorCheckUnits: a prepared check, a project's package versions, its own count) before it
// runs, both with the ladder's reserveJobUnits; everything else is unmetered.
//
// When it is free: every answer given before the reservation costs nothing: 400 (unreadable, unclean or invalid
// input, unknown fields), 401, 402, 403 (capability, bulk, origin), 429 (burst limit), the preflight's refusals (the
// SSRF guard), and the 404s decided from the request alone (a private address, a special-use name, a reserved AS
// number: the decisions of ./input-decisions.ts, declared per route with `decides`). A bulk item or a monitor
// check runs under its payer's reservation and is never charged again (`prepaid`).
//
// When it is given back (givenBackOf, below; DESIGN "Charging"): an admitted request that was not answered (a 5xx:
// 503 UPSTREAM_UNAVAILABLE, or our own 500) gives back all its units; a batch gives back the units of the targets its
// answer could not answer (the route's `unanswered`: blocklist targets, a range's addresses no list answered for);
// an answer that could not be delivered (the client went away) gives back what it was charged (UNDELIVERED_REASON,
// ./rest/undelivered.ts); a bulk job gives back its cancelled items, those refused before they ran and what its
// items' lookups gave back (cancelledItemsGivenBack, bulkItemGivenBack), a monitor run the units of a check none of
// whose lookups was admitted or whose lookup was not answered (monitorCheckCharge), all below. A 4xx after
// admission is an answer and counts: a source's "not found" is what it found.
import { cidrUnits, parseIpv4Cidr } from "../cidr/range";
import type { BulkItemEnd, CheckCharge, ItemCharging } from "../bulk/procedures";
import { toErrorBody } from "../errors";
import type { LockfileFormat } from "../vulnerabilities/lockfiles/types";
import { readLockfileOnce } from "../vulnerabilities/lockfile-scan/read";

/** A metered lookup: `cost` for the docs ("1 unit"), `units` counting a request's units from its validated input. */
export interface LookupCharging {
  kind: "lookup";
  cost: string;
  units?: (input: any) => number;
}
/** A bulk job: the sum of its items' units (each item its procedure's), reserved at once when the job starts. */
export interface JobCharging {
  kind: "job";
  cost: string;
}
/** A monitor's run outside its schedule: what a scheduled run costs, reserved before it starts (server/monitors/). */
export interface MonitorRunCharging {
  kind: "monitor-run";
  cost: string;
}
/** No lookup units. */
export interface FreeCharging {
  kind: "free";
}
export type Charging = LookupCharging | JobCharging | MonitorRunCharging | FreeCharging;

/** A metered lookup of one unit, the common case. */
export const ONE_UNIT: LookupCharging = { kind: "lookup", cost: "1 unit" };
export const FREE: FreeCharging = { kind: "free" };
/** A lookup whose units the input counts; `cost` says how, in the docs' words. */
export function lookup<I>(cost: string, units: (input: I) => number): LookupCharging {
  return { kind: "lookup", cost, units: units as (input: any) => number };
}
const BULK_JOB: JobCharging = {
  kind: "job",
  cost: "the sum of the items' lookup units, reserved at once when the job starts",
};
const MONITOR_RUN: MonitorRunCharging = {
  kind: "monitor-run",
  cost: "1 unit per check whatever its options (a prepared check: its own count), reserved before the run starts",
};

/**
 * Every procedure's charging, by its path in the app router ("geo.ipGeo"). A procedure added without an entry fails
 * test/metering/charging.test.ts, whose message gives the line to add here.
 */
export const CHARGING: Readonly<Record<string, Charging>> = {
  "account.me": FREE,
  "account.createWorkspace": FREE,
  "account.overview": FREE,
  "account.plans": FREE,
  "account.billing": FREE,
  "account.keys": FREE,
  "account.createKey": FREE,
  "account.revokeKey": FREE,
  "account.members": FREE,
  "account.inviteMember": FREE,
  "account.removeMember": FREE,
  "account.changeMemberRole": FREE,

  "geo.ipGeo": ONE_UNIT,

  "assessment.assess": ONE_UNIT,
  "assessment.outcome": FREE,

  "rules.list": FREE,
  "rules.create": FREE,
  "rules.backtest": FREE,
  "rules.get": FREE,
  "rules.update": FREE,
  "rules.delete": FREE,
  "rules.packs": FREE,
  "rules.enablePack": FREE,

  "ip.ipLookup": ONE_UNIT,
  "ip.ipReputation": ONE_UNIT,

  "asn.asnLookup": ONE_UNIT,

  "rdap.ipRdap": ONE_UNIT,
  "rdap.domainRdap": ONE_UNIT,

  "domain.domainIntel": ONE_UNIT,
  "domain.domainSubdomains": ONE_UNIT,
  "domain.domainInfrastructure": ONE_UNIT,

  "dns.dnsLookup": ONE_UNIT,

  "email.emailCheck": ONE_UNIT,
  "email.emailSecurity": ONE_UNIT,

  "hosts.hostSsl": ONE_UNIT,
  "hosts.hostStatus": ONE_UNIT,
  "hosts.onlineCheck": ONE_UNIT,

  "blocklists.blocklistsCheck": lookup(
    "1 unit per submitted target",
    (input: { targets: unknown[] }) => input.targets.length,
  ),

  "cidr.cidrCheck": lookup(
    "2^(32-prefix) units for /29 to /32 (every address); 7 units for wider ranges (7 sampled addresses)",
    (input: { cidr: string }) => {
      const r = parseIpv4Cidr(input.cidr);
      return "error" in r ? 1 : cidrUnits(r.prefix);
    },
  ),

  "captcha.test": ONE_UNIT,
  "captcha.testLegacyPath": ONE_UNIT,

  "vulnerabilities.npmReport": ONE_UNIT,
  "vulnerabilities.packageReport": ONE_UNIT,
  "vulnerabilities.cve": ONE_UNIT,
  "vulnerabilities.kev": ONE_UNIT,
  "vulnerabilities.scan": lookup(
    "1 unit per distinct package version in the file",
    (input: { lockfile: string; format?: LockfileFormat }) => {
      const read = readLockfileOnce(input.lockfile, input.format);
      if (!read.ok) throw new Error("a scan's input was validated before its lockfile was read");
      return read.lockfile.packages.length;
    },
  ),
  "vulnerabilities.scanPreview": FREE,

  "webhooks.create": FREE,
  "webhooks.list": FREE,
  "webhooks.update": FREE,
  "webhooks.delete": FREE,
  "webhooks.deliveries": FREE,
  "webhooks.sendTest": FREE,
  "webhooks.redeliver": FREE,

  "workspace.events": FREE,
  "workspace.eventsCsv": FREE,
  "workspace.analyticsSummary": FREE,
  "workspace.analyticsTimeseries": FREE,
  "workspace.lookupHistory": FREE,

  "reports.create": ONE_UNIT,
  "reports.list": FREE,
  "reports.rename": FREE,
  "reports.delete": FREE,

  "senders.list": FREE,
  "senders.add": FREE,
  "senders.verify": FREE,
  "senders.remove": FREE,

  "links.create": FREE,
  "links.list": FREE,
  "links.disable": FREE,
  "links.enable": FREE,

  "scans.create": ONE_UNIT,
  "scans.leaderboard": FREE,
  "scans.hosts": FREE,
  "scans.get": FREE,
  "scans.list": FREE,

  "abuse.ipAbuse": ONE_UNIT,
  "abuse.domainAbuse": ONE_UNIT,

  "device.check": ONE_UNIT,

  "jobs.estimate": FREE,
  "jobs.create": BULK_JOB,
  "jobs.list": FREE,
  "jobs.get": FREE,
  "jobs.resultsCsv": FREE,
  "jobs.cancel": FREE,

  "sources.list": FREE,

  "weights.get": FREE,
  "weights.setMode": FREE,

  "lists.list": FREE,
  "lists.create": FREE,
  "lists.get": FREE,
  "lists.update": FREE,
  "lists.delete": FREE,
  "lists.items": FREE,
  "lists.addItems": FREE,
  "lists.deleteItem": FREE,

  "cases.list": FREE,
  "cases.get": FREE,
  "cases.assign": FREE,
  "cases.resolve": FREE,

  "monitors.list": FREE,
  "monitors.create": FREE,
  "monitors.get": FREE,
  "monitors.update": FREE,
  "monitors.delete": FREE,
  "monitors.run": MONITOR_RUN,
  "monitors.runs": FREE,
  "monitors.alerts": FREE,
  "monitors.unsubscribe": FREE,
  "monitors.unsubscribeOneClick": FREE,
  "monitors.estimate": FREE,

  "projects.list": FREE,
  "projects.get": FREE,
  "projects.scans": FREE,
  "projects.scan": FREE,
  "projects.delete": FREE,

  "users.get": FREE,
  "phone.phoneLookup": ONE_UNIT,
  "passwords.passwordRange": FREE,
};

/** The procedure's charging; undefined for a procedure not in the table yet (the test names it). */
export function chargingOf(path: string): Charging | undefined {
  return Object.hasOwn(CHARGING, path) ? CHARGING[path] : undefined;
}

/** Units a metered request reserves: its entry's count, else 1 (procedures declare no units of their own). */
export function unitsOf(path: string, input: unknown): number {
  const entry = chargingOf(path);
  return entry?.kind === "lookup" && entry.units ? entry.units(input) : 1;
}

/** The cost sentence of a procedure that charges (lookup, job, monitor run), or null when it is unmetered or unknown. */
export function costOf(path: string): string | null {
  const entry = chargingOf(path);
  return entry && entry.kind !== "free" ? entry.cost : null;
}

interface ChargedMeta {
  metered?: { cost: string };
  charges?: string;
}

/**
 * Writes each procedure's cost from CHARGING into its meta (`metered.cost` of a lookup, `charges` of a job), so the
 * OpenAPI document's `x-service-cost`, /docs, the console and the description's cost sentence all read this table.
 * Called by `router` (server/api/trpc.ts) with the built router's procedures; paths not in the table are left as
 * the procedure declared them.
 */
export function applyCharging(procedures: Record<string, unknown>): void {
  for (const [path, proc] of Object.entries(procedures)) {
    const entry = chargingOf(path);
    const meta = (proc as { _def?: { meta?: ChargedMeta } })?._def?.meta;
    if (!entry || !meta) continue;
    if (entry.kind === "lookup" && meta.metered) meta.metered.cost = entry.cost;
    // A job and a monitor run both reserve units outside meteredProcedure: the docs' cost sentence and
    // x-service-cost read `charges` (a monitor run's description said "unmetered" while it charged).
    if (entry.kind === "job" || entry.kind === "monitor-run") meta.charges = entry.cost;
  }
}

/** Units an admitted request gives back, and why (a ledger row of negative units with this reason). */
export interface GivenBack {
  units: number;
  reason: string;
}

/**
 * What an admitted request gives back: everything when it was not answered (a 5xx: 503 UPSTREAM_UNAVAILABLE from a
 * source that did not answer, or our own 500), else the units of the targets its answer could not answer (the
 * route's `unanswered`), else nothing. A 4xx after admission is an answer and counts: a source's "not found" (404
 * PACKAGE_NOT_FOUND, VERSION_NOT_FOUND, DOMAIN_NOT_FOUND, ...) is what it found.
 */
export function givenBackOf<T>(
  opts: { unanswered?: (input: T, output: any) => GivenBack | null },
  typed: T,
  result: { ok: boolean; data?: unknown; error?: unknown },
  units: number,
): GivenBack | null {
  if (units <= 0) return null;
  if (!result.ok) {
    const { status, body } = toErrorBody(result.error);
    if (status < 500) return null;
    return { units, reason: `Not answered (${status} ${body.error.code}): ${body.error.message}`.slice(0, 500) };
  }
  const part = opts.unanswered?.(typed, result.data);
  if (!part || part.units <= 0) return null;
  return { units: Math.min(units, part.units), reason: part.reason.slice(0, 500) };
}

/** The reason on the ledger row of an answer that could not be delivered (./rest/undelivered.ts). */
export const UNDELIVERED_REASON =
  "The answer could not be delivered: the client closed the connection before it was written.";

// Bulk items and monitor runs. A job's payer reserves its units at once with the ladder's reserveJobUnits
// (./ladder.ts): a bulk job the sum of its items' units when it is submitted, a monitor run the sum of its checks'
// units before it runs. Each item or check then runs its metered procedure under that reservation (`prepaid`) and is
// never charged again. server/bulk/ and server/monitors/ import nothing of server/api/: the API layer hands them
// JOB_CHARGING with the procedures (./bulk-procedures.ts, server/bulk/procedures.ts ItemCharging).

/** A bulk item's units: what a single request of its procedure reserves for the same input (CHARGING, unitsOf). */
export function bulkItemUnits(procedure: string, input: unknown): number {
  return unitsOf(procedure, input);
}

/**
 * What a bulk item gives back to its job's payer: all its units when its worker gave up on it (`abandoned`: it died
 * that many times, the item was never answered) or when it was refused before the point where a single request
 * reserves (input, plan, SSRF guard: `failed` and not `admitted`); else what its lookup gave back (givenBackOf: all
 * of a 5xx, a batch's targets no source answered), at most the item's units. A 4xx after admission counts.
 */
export function bulkItemGivenBack(units: number, end: BulkItemEnd): GivenBack | null {
  let back: GivenBack | null;
  if ("abandoned" in end) back = { units, reason: `not answered: ${end.abandoned}` };
  else if (end.failed !== undefined && !end.admitted) back = { units, reason: `refused before it ran: ${end.failed}` };
  else back = end.givenBack ?? null;
  if (!back || back.units <= 0 || units <= 0) return null;
  return { units: Math.min(units, back.units), reason: back.reason };
}

/** What a cancelled job gives back: the units of its items never run (those already running finish and count). */
export function cancelledItemsGivenBack(jobId: string, items: readonly { units: number }[]): GivenBack | null {
  const units = items.reduce((n, i) => n + i.units, 0);
  if (units <= 0) return null;
  return { units, reason: `Job ${jobId} cancelled: ${items.length} item${items.length === 1 ? "" : "s"} not run` };
}

/**
 * A monitor check's units in a run: one whatever its options (a dns check of four record types, a packages check of
 * ten packages: "one unit per check per run"); a check that reads its lookups first (`prepare`: a project check) what
 * that read counted (its project's package versions); nothing when that read failed (the check's error, at no cost).
 */
export function monitorCheckUnits(prepared?: { units: number } | { error: unknown }): number {
  if (!prepared) return 1;
  return "units" in prepared ? prepared.units : 0;
}

/**
 * A monitor run's units, for the dashboard's estimate and a monitor's `units_per_run`: one per check, or a project
 * monitor's package versions (`prepared`: its only check is the project check).
 */
export function monitorRunUnits(run: { checks: number; prepared?: number }): number {
  return run.prepared !== undefined ? monitorCheckUnits({ units: run.prepared }) : run.checks * monitorCheckUnits();
}

/**
 * One check's charge through its lookups: its units ride on its first admitted lookup (that lookup's history entry
 * carries them; the others are entries of 0 units, so a month's entries still add up to the units used). It gives
 * them all back when none of its lookups was admitted (all refused before the point where a request would reserve),
 * or when the lookup that carried them gave them back (its source did not answer: givenBackOf); its other lookups
 * then carry none.
 */
export function monitorCheckCharge(units: number): CheckCharge {
  let charged = 0;
  let givenBack = false;
  return {
    next: () => (charged === 0 && !givenBack ? units : 0),
    settle(prepaid) {
      if (prepaid.givenBack) givenBack = true;
      else if (prepaid.admitted && prepaid.units > 0) charged = units;
    },
    charged: () => charged,
    givenBack: () => (charged === 0 ? units : 0),
  };
}

/** The answers above, as the API layer hands them to server/bulk/ and server/monitors/ (./bulk-procedures.ts). */
export const JOB_CHARGING: ItemCharging = {
  bulkItemUnits,
  bulkItemGivenBack,
  cancelledItemsGivenBack,
  monitorCheckUnits,
  monitorRunUnits,
  monitorCheckCharge,
};
