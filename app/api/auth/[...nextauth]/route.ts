// next-auth's own routes (sign-in, callback, session, csrf, sign-out) with the options built on first use.
import NextAuth from "next-auth";
import { getAuthOptions } from "../../../../server/auth/options";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

function handler(req: Request, ctx: RouteContext) {
  return NextAuth(req as never, ctx as never, getAuthOptions());
}

export { handler as GET, handler as POST };
