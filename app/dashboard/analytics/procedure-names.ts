// Names of the procedures for the analytics page's error rates per endpoint, read from the procedures' own meta
// (summary and REST route), so the page says "Email address check (POST /v1/email/check)" rather than a
// procedure path. Server-only: the page passes the result to the client view.
import { appRouter } from "../../../server/api/root";
import type { Meta } from "../../../server/api/trpc";

export interface ProcedureName {
  summary: string;
  /** "POST /v1/email/check", or null for a dashboard-only procedure. */
  route: string | null;
}

let cached: Record<string, ProcedureName> | null = null;

export function procedureNames(): Record<string, ProcedureName> {
  if (cached) return cached;
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { meta?: Meta } }> } })._def
    .procedures;
  const out: Record<string, ProcedureName> = {};
  for (const [path, proc] of Object.entries(procedures)) {
    const openapi = proc._def.meta?.openapi;
    if (!openapi) continue;
    out[path] = { summary: openapi.summary ?? path, route: `${openapi.method} /v1${openapi.path}` };
  }
  cached = out;
  return out;
}
