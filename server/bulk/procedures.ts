// What bulk jobs need of the API layer, handed to them by it (server/api/bulk-procedures.ts), so that this domain
// module imports nothing above it: checking a line against the lookup procedure of its kind (input and the
// capability it requires), naming the plans that include a capability, and running the procedure for one item with
// its units already paid.
import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";
import type { Entitlements } from "../plans/catalog";
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
}

/** An item's units, paid before it runs; what the procedure admitted and gave back (server/api/context.ts). */
export interface Prepaid {
  units: number;
  admitted: boolean;
  givenBack?: { units: number; reason: string };
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

export function bulkProcedures(): BulkProcedures {
  if (!provided)
    throw new Error(
      "bulk jobs: the API layer has not provided the procedures (call registerBulkProcedures from server/api/bulk-procedures.ts)",
    );
  return provided;
}
