// GET /badges/{host}.svg: the public grade badge of a host (latest public scan only). No key, unmetered.
import { getDb } from "../../../server/db/client";
import { answerBadgeRequest } from "../../../server/site-scans/badge";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await ctx.params;
  return answerBadgeRequest(await getDb(), file, req.headers.get("if-none-match"));
}
