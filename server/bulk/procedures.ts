// What bulk jobs and monitor runs need of the API layer, handed to them by it (server/api/bulk-procedures.ts), so
// that these domain modules import nothing above it: checking a line against the lookup procedure of its kind (input
// and the capability it requires), naming the plans that include a capability, running the procedure for one item
// with its units already paid, the ladder's reservation of a job's units (server/api/ladder.ts reserveJobUnits), and
// the charging module's answers for bulk items and monitor runs (server/api/charging.ts JOB_CHARGING).
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import type { Entitlements } from "../plans/catalog";
import type { QuotaState, ReserveArgs } from "../quota/reserve";
import type { BulkKind } from "./kinds";

export type Capability = Entitlements["capabilities"][number];

export interface BulkProcedures {
  /** The first problem the kind's procedure finds in `input` ("domain Invalid ..."), or null; and its capability. */
  inspect(kind: BulkKind, input: unknown): Promise<{ problem: string | null; capability: Capability | undefined }>;
  /** The plans that include `capability`, as a refusal names them ("a Suite or Lookups plan"). */
  plansWith(capability: Capability): string;
  /**
   * Runs the kind's metered procedure for `principal` with the item's units reserved with its job (`prepaid`): the
   * procedure sets `prepaid.admitted` at the point where a single request would have reserved, and
   * `prepaid.givenBack` to the units it could not answer (all of them on a 5xx), which the payer refunds.
   */
  run(a: { db: Db; kind: BulkKind; input: unknown; principal: Principal; prepaid: Prepaid }): Promise<unknown>;
  /**
   * The same as `run` for a metered procedure named by its tRPC path ("hosts.hostSsl"): a monitor's check is one
   * such lookup, paid with the units its run reserved (server/monitors/run.ts).
   */
  runProcedure(a: {
    db: Db;
    procedure: string;
    input: unknown;
    principal: Principal;
    prepaid: Prepaid;
  }): Promise<unknown>;
  /**
   * The ladder's step that reserves a job's units at once (server/api/ladder.ts reserveJobUnits, its contract there):
   * the quota state after it, or null when the allowance has not that many left (nothing consumed).
   */
  reserveJob(db: Db, job: JobReservation): Promise<QuotaState | null>;
  /** What bulk items and monitor runs cost, and what they give back (server/api/charging.ts JOB_CHARGING). */
  charging: ItemCharging;
}

/** A job's reservation: its payer, its units, the allowance, and the ledger row's request and endpoint. */
export type JobReservation = Pick<
  ReserveArgs,
  "workspaceId" | "units" | "limit" | "requestId" | "endpoint" | "apiKeyId" | "userId" | "now"
>;

/** Units given back, and why (a ledger row of negative units with this reason). */
export interface GivenBack {
  units: number;
  reason: string;
}

/** How a bulk item ended, for what it gives back: its worker gave up on it, or it ran (or was refused). */
export type BulkItemEnd = { abandoned: string } | { admitted: boolean; givenBack?: GivenBack; failed?: string };

/** One check of a monitor run through its lookups: which lookup carries its units, and what it gives back. */
export interface CheckCharge {
  /** The units the check's next lookup carries (its `prepaid.units`). */
  next(): number;
  /** Notes what a lookup was admitted with and gave back (its `prepaid` after the call). */
  settle(prepaid: Prepaid): void;
  /** The units the check was charged once its lookups ran. */
  charged(): number;
  /** The units the check gives back to its run's payer. */
  givenBack(): number;
}

/** The charging module's answers for a job's items and a monitor run's checks (server/api/charging.ts). */
export interface ItemCharging {
  /** A bulk item's units: what a single request of its procedure costs for the same input. */
  bulkItemUnits(procedure: string, input: unknown): number;
  /** What a bulk item gives back, or null. */
  bulkItemGivenBack(units: number, end: BulkItemEnd): GivenBack | null;
  /** What a cancelled job gives back for its items never run, or null. */
  cancelledItemsGivenBack(jobId: string, items: readonly { units: number }[]): GivenBack | null;
  /** A monitor check's units in a run, from what its `prepare` read (or its failure to), if it has one. */
  monitorCheckUnits(prepared?: { units: number } | { error: unknown }): number;
  /** A monitor run's units: `checks` checks, or a project monitor's `prepared` package versions. */
  monitorRunUnits(run: { checks: number; prepared?: number }): number;
  /** One check's charge through its lookups, for `units`. */
  monitorCheckCharge(units: number): CheckCharge;
}

/** An item's units, paid before it runs; what the procedure admitted and gave back (server/api/context.ts). */
export interface Prepaid {
  units: number;
  admitted: boolean;
  givenBack?: { units: number; reason: string };
  /** The request id its lookup is recorded under in the lookup history (set by the API layer as it runs it). */
  requestId?: string;
}

let provided: BulkProcedures | null = null;

/** Called once by the API layer when it loads. */
export function provideBulkProcedures(p: BulkProcedures): void {
  provided = p;
}

/** Whether the API layer has provided the procedures in this process (the worker claims nothing before). */
export function bulkProceduresProvided(): boolean {
  return provided !== null;
}

/** What bulk items and monitor runs cost and give back, as the API layer handed it (server/api/charging.ts). */
export function jobCharging(): ItemCharging {
  return bulkProcedures().charging;
}

export function bulkProcedures(): BulkProcedures {
  if (!provided)
    throw new Error(
      "bulk jobs: the API layer has not provided the procedures (call registerBulkProcedures from server/api/bulk-procedures.ts)",
    );
  return provided;
}
