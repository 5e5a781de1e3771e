// The signed-in dashboard user, from the next-auth session cookie (server components and route handlers).
import { getServerSession } from "next-auth";
import type { SessionUser } from "./principal";
import { getAuthOptions } from "./options";

export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await getServerSession(getAuthOptions());
  const user = session?.user as { id?: string; email?: string | null; name?: string | null } | undefined;
  if (!user?.id || !user.email) return null;
  return { userId: user.id, email: user.email, name: user.name ?? null };
}
