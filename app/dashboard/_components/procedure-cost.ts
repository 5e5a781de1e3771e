// Server components only (it imports the router).
// The unit cost of a metered procedure as its meta declares it (the same text the API reference shows), read on
// the server so a page can say what a run costs before the user runs it.
import { appRouter } from "../../../server/api/root";
import type { Meta } from "../../../server/api/trpc";

type AnyProcedure = { _def: { meta?: Meta } };

export function procedureCost(path: string): string | null {
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, AnyProcedure> } })._def.procedures;
  return procedures[path]?._def.meta?.metered?.cost ?? null;
}

/**
 * The most bytes a procedure reads in its raw-body field (a lockfile), as its meta declares it: the REST API's body
 * limit and the dashboard's (server/api/http/dashboard.ts), so a page can refuse a larger file before sending it.
 */
export function procedureFieldLimit(path: string): number | null {
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, AnyProcedure> } })._def.procedures;
  return procedures[path]?._def.meta?.rawBody?.maxBytes ?? null;
}
