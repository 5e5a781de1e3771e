// next-auth's own routes (sign-in, callback, session, csrf, sign-out) with the options built on first use. The
// requests next-auth would answer with a 500 are answered first (server/api/http/auth-route-guard.ts).
import NextAuth from "next-auth";
import { getAuthOptions } from "../../../../server/auth/options";
import { authRouteRefusal } from "../../../../server/api/http/auth-route-guard";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

async function handler(req: Request, ctx: RouteContext) {
  const options = getAuthOptions();
  const { nextauth } = await ctx.params;
  return authRouteRefusal(req, nextauth, options.providers) ?? NextAuth(req as never, ctx as never, options);
}

export { handler as GET, handler as POST };
