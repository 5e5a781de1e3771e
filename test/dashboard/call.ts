// Calls to the dashboard's tRPC endpoint for the tests of the dashboard's procedures: an owner's workspace, a
// member (not owner) of it, and tRPC calls over HTTP with the session user, the selected workspace and the Origin
// rule.
import type { SessionUser } from "../../server/api/context";
import { handleDashboardRequest } from "../../server/api/http/dashboard";
import type { Db } from "../../server/db/client";
import { ensureUser, inviteMember } from "../../server/workspaces/members";
import { createWorkspace } from "../../server/workspaces/workspaces";

const ORIGIN = "http://127.0.0.1:3000";

export interface Seat {
  user: SessionUser;
  workspaceId: string;
}

async function signedIn(db: Db, email: string): Promise<SessionUser> {
  const u = await ensureUser(db, { email });
  return { userId: u.id, email: u.email, name: null };
}

/** A new workspace on `plans` with its owner, and a member (not owner) who has signed in. */
export async function ownerAndMember(db: Db, label: string, plans: string[]): Promise<{ owner: Seat; member: Seat }> {
  const tag = `${label}-${Math.random().toString(36).slice(2, 8)}`;
  const owner = await signedIn(db, `owner-${tag}@dash.test`);
  const { workspaceId } = await createWorkspace(db, {
    name: tag,
    plans,
    ownerEmail: owner.email,
    ownerUserId: owner.userId,
  });
  let member = owner;
  if (!plans.includes("free")) {
    await inviteMember(db, { workspaceId, email: `member-${tag}@dash.test`, role: "member" });
    member = await signedIn(db, `member-${tag}@dash.test`);
  }
  return { owner: { user: owner, workspaceId }, member: { user: member, workspaceId } };
}

export interface CallResult {
  status: number;
  data: any;
  code: string | undefined;
  message: string | undefined;
}

export async function call(seat: Seat, path: string, input: unknown, kind: "query" | "mutation"): Promise<CallResult> {
  const headers = new Headers({ "x-service-workspace": seat.workspaceId });
  let req: Request;
  if (kind === "mutation") {
    headers.set("content-type", "application/json");
    headers.set("origin", ORIGIN);
    req = new Request(`${ORIGIN}/api/trpc/${path}`, { method: "POST", headers, body: JSON.stringify(input) });
  } else {
    const q = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    req = new Request(`${ORIGIN}/api/trpc/${path}${q}`, { headers });
  }
  const res = await handleDashboardRequest(req, async () => seat.user);
  const body = (await res.json()) as any;
  return { status: res.status, data: body.result?.data, code: body.error?.data?.appCode, message: body.error?.message };
}
