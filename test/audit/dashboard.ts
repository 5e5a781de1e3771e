// Calls through the dashboard's tRPC endpoint (tRPC over HTTP with a signed-in user), for audit tests that need a user actor.
import type { SessionUser } from "../../server/api/context";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import type { Db } from "../../server/db/client";
import { ensureUser } from "../../server/workspaces/members";

export const ORIGIN = "http://127.0.0.1:3000";

export async function signedIn(db: Db, email: string): Promise<SessionUser> {
  const u = await ensureUser(db, { email });
  return { userId: u.id, email: u.email, name: null };
}

export async function dashboardMutation(
  path: string,
  input: unknown,
  user: SessionUser,
  headers: Record<string, string> = {},
) {
  const h = new Headers({ "content-type": "application/json", origin: ORIGIN, ...headers });
  const res = await handleDashboardRequest(
    new Request(`${ORIGIN}/api/trpc/${path}`, { method: "POST", headers: h, body: JSON.stringify(input) }),
    async () => user,
  );
  return { status: res.status, body: (await res.json()) as any };
}

export async function dashboardQuery(
  path: string,
  input: unknown,
  user: SessionUser,
  headers: Record<string, string> = {},
) {
  const q = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res = await handleDashboardRequest(
    new Request(`${ORIGIN}/api/trpc/${path}${q}`, { headers }),
    async () => user,
  );
  return { status: res.status, body: (await res.json()) as any };
}
