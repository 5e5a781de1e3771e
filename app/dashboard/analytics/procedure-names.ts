// Names of the procedures for the analytics page's error rates per endpoint: the API's read from the procedures' own
// meta (summary and REST route), so the page says "Email address check (POST /v1/email/check)" rather than a
// procedure path, and the dashboard's own calls (counted too: the page's error rate covers "the requests made with
// this workspace's API keys and in the dashboard") in words a customer uses for what they did ("Workspace overview
// (plan, usage and role)", not "Account: overview"). Server-only: the page passes the result to the client view.
import { appRouter } from "../../../server/api/root";
import type { Meta } from "../../../server/api/trpc";

export interface ProcedureName {
  summary: string;
  /** "POST /v1/email/check", or null for a dashboard-only procedure. */
  route: string | null;
}

/**
 * What each dashboard-only procedure is, as the dashboard page that calls it would say it. Every procedure without a
 * REST route has its words here (test/dashboard/procedure-names.test.ts).
 */
export const DASHBOARD_CALLS: Readonly<Record<string, string>> = {
  "account.me": "Your workspaces",
  "account.createWorkspace": "Create a workspace",
  "account.overview": "Workspace overview (plan, usage and role)",
  "account.plans": "Plans",
  "account.billing": "Billing",
  "account.keys": "API key list",
  "account.createKey": "Create an API key",
  "account.revokeKey": "Revoke an API key",
  "account.members": "Member list",
  "account.inviteMember": "Invite a member",
  "account.removeMember": "Remove a member",
  "account.changeMemberRole": "Change a member's role",
  "vulnerabilities.scanPreview": "Lockfile scan cost check",
  "reports.create": "Save a report",
  "reports.list": "Saved report list",
  "reports.rename": "Rename a report",
  "reports.delete": "Delete a report",
  "senders.list": "Sender list",
  "senders.add": "Add a sender",
  "senders.verify": "Verify a sender",
  "senders.remove": "Remove a sender",
  "monitors.estimate": "Monitor cost estimate",
};

let cached: Record<string, ProcedureName> | null = null;

export function procedureNames(): Record<string, ProcedureName> {
  if (cached) return cached;
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { meta?: Meta } }> } })._def
    .procedures;
  const out: Record<string, ProcedureName> = {};
  for (const [path, proc] of Object.entries(procedures)) {
    const openapi = proc._def.meta?.openapi;
    if (openapi) out[path] = { summary: openapi.summary ?? path, route: `${openapi.method} /v1${openapi.path}` };
    else if (Object.hasOwn(DASHBOARD_CALLS, path)) out[path] = { summary: DASHBOARD_CALLS[path]!, route: null };
  }
  cached = out;
  return out;
}
